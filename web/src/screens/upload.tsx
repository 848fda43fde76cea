import { type DragEvent, type FormEvent, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ApiError, api, putFile, type UploadAnswer } from '../api.js';
import { ErrorNote, locale } from '../components/common.js';
import { droppedFiles, msg, type PickedFile, pickedFiles } from '../lib/index.js';

const outcomeNames: Record<string, string> = {
  stored: msg('stored'),
  already_present: msg('already in the vault (a new place recorded)'),
  undecodable: msg('stored, but the image could not be decoded'),
  too_large: msg('stored, too large for previews'),
  refused: msg('refused'),
  skipped: msg('skipped'),
  unpacked: msg('zip unpacked'),
};

function useBytes() {
  const { i18n } = useTranslation();
  return (n: number) =>
    new Intl.NumberFormat(locale(i18n.language), {
      style: 'unit',
      unit: 'megabyte',
      maximumFractionDigits: 1,
    }).format(n / 1_000_000);
}

type Phase = 'choosing' | 'sending' | 'ingesting' | 'done';

/**
 * Drag and drop (or pick) files, a zip or a whole folder; each file is sent as its own request with its folder
 * path, then the server ingests them with the same code as `athar ingest` and answers each file's outcome.
 */
export function UploadPanel() {
  const { t } = useTranslation();
  const bytes = useBytes();
  const [files, setFiles] = useState<PickedFile[]>([]);
  const [source, setSource] = useState('');
  const [note, setNote] = useState('');
  const [over, setOver] = useState(false);
  const [phase, setPhase] = useState<Phase>('choosing');
  const [sent, setSent] = useState(0);
  const [upload, setUpload] = useState<UploadAnswer | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [tooLarge, setTooLarge] = useState<number | null>(null);
  const live = useRef(true);
  // Set again on every mount: React may mount, unmount and mount a component once more (Strict Mode).
  useEffect(() => {
    live.current = true;
    return () => {
      live.current = false;
    };
  }, []);

  const total = files.reduce((n, f) => n + f.file.size, 0);
  const add = (more: PickedFile[]) => {
    setFiles((now) => {
      const seen = new Set(now.map((f) => f.path));
      return [...now, ...more.filter((f) => !seen.has(f.path))];
    });
    setPhase('choosing');
    setUpload(null);
  };

  async function onDrop(e: DragEvent) {
    e.preventDefault();
    setOver(false);
    add(await droppedFiles(e.dataTransfer));
  }

  async function follow(id: string) {
    for (;;) {
      const now = await api.get<UploadAnswer>(`/api/uploads/${id}`);
      if (!live.current) return;
      setUpload(now);
      if (now.status === 'finished' || now.status === 'failed') return;
      await new Promise((r) => setTimeout(r, 1000));
    }
  }

  async function submit(e: FormEvent) {
    e.preventDefault();
    setError(null);
    setTooLarge(null);
    try {
      const started = await api.post<{ id: string; maxBytes: number }>('/api/uploads');
      if (total > started.maxBytes) {
        setTooLarge(started.maxBytes);
        return;
      }
      setPhase('sending');
      let done = 0;
      for (const f of files) {
        await putFile(`/api/uploads/${started.id}/files?path=${encodeURIComponent(f.path)}`, f.file, (n) =>
          setSent(done + n),
        );
        done += f.file.size;
        setSent(done);
      }
      setPhase('ingesting');
      setUpload(
        await api.post<UploadAnswer>(`/api/uploads/${started.id}/ingest`, {
          ...(source.trim() ? { source: source.trim() } : {}),
          ...(note.trim() ? { note: note.trim() } : {}),
        }),
      );
      await follow(started.id);
      setPhase('done');
      setFiles([]);
    } catch (err) {
      setError(err);
      setPhase('choosing');
    }
  }

  return (
    <form onSubmit={submit} className="form upload" aria-labelledby="upload-title">
      <h2 id="upload-title">{t('Upload files')}</h2>
      <p className="muted">
        {t(
          'Drop photos, a zip or a whole folder here. They are stored exactly as they are, with their folder names, and ingested as the command line does. Large disks are still for the command line (athar ingest).',
        )}
      </p>
      <section
        className={over ? 'drop-zone over' : 'drop-zone'}
        aria-label={t('Drop zone')}
        onDragOver={(e) => {
          e.preventDefault();
          setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={(e) => void onDrop(e)}
      >
        <p>{t('Drop files or folders here, or choose them:')}</p>
        <div className="buttons">
          <label className="file-button">
            {t('Choose files or a zip')}
            <input
              type="file"
              name="files"
              multiple
              className="visually-hidden"
              onChange={(e) => add(pickedFiles(e.target.files))}
            />
          </label>
          <label className="file-button">
            {t('Choose a folder')}
            <input
              type="file"
              name="folder"
              className="visually-hidden"
              // Folder selection: every file with its path inside the folder.
              {...{ webkitdirectory: '', directory: '' }}
              onChange={(e) => add(pickedFiles(e.target.files))}
            />
          </label>
        </div>
      </section>
      {files.length > 0 && (
        <p role="status">
          {t('{{count}} files chosen, {{size}}', { count: files.length, size: bytes(total) })}{' '}
          <button type="button" className="link-button" onClick={() => setFiles([])}>
            {t('Clear')}
          </button>
        </p>
      )}
      <label>
        {t('Source (who handed the files over)')}
        <input name="source" dir="auto" value={source} onChange={(e) => setSource(e.target.value)} />
      </label>
      <label>
        {t('Note')}
        <input name="note" dir="auto" value={note} onChange={(e) => setNote(e.target.value)} />
      </label>
      {tooLarge !== null && (
        <p role="alert" className="error-note">
          {t('These files are {{size}}; one upload may be at most {{max}}. Send fewer at a time.', {
            size: bytes(total),
            max: bytes(tooLarge),
          })}
        </p>
      )}
      <ErrorNote error={error} />
      {error instanceof ApiError && error.problem.detail && (
        <p className="muted" dir="ltr">
          {error.problem.detail}
        </p>
      )}
      <button type="submit" disabled={files.length === 0 || phase === 'sending' || phase === 'ingesting'}>
        {t('Upload and ingest')}
      </button>

      {phase === 'sending' && (
        <div className="progress" aria-live="polite">
          <progress value={sent} max={total || 1} aria-label={t('Sending')} />
          <span>{t('Sending: {{sent}} of {{total}}', { sent: bytes(sent), total: bytes(total) })}</span>
        </div>
      )}
      {upload && (upload.status === 'ingesting' || upload.status === 'receiving') && (
        <div className="progress" aria-live="polite">
          <progress value={upload.done} max={upload.total || 1} aria-label={t('Ingesting')} />
          <span>{t('Ingesting: {{done}} of {{total}}', { done: upload.done, total: upload.total })}</span>
        </div>
      )}
      {upload?.status === 'failed' && (
        <p role="alert" className="error-note">
          {t('The ingest failed; nothing half-written was kept. Try again or ask the administrator.')}
        </p>
      )}
      {upload?.status === 'finished' && upload.outcomes && (
        <div className="table-scroll" data-upload={upload.status}>
          <p role="status" className="ok">
            {t('Done: {{count}} files', { count: upload.outcomes.length })}
          </p>
          <table className="outcomes">
            <thead>
              <tr>
                <th scope="col">{t('File')}</th>
                <th scope="col">{t('Outcome')}</th>
              </tr>
            </thead>
            <tbody>
              {upload.outcomes.map((o) => (
                <tr key={o.path} data-outcome={o.outcome}>
                  <th scope="row" dir="auto">
                    {o.evidenceId ? <Link to={`/evidence/${o.evidenceId}`}>{o.path}</Link> : o.path}
                  </th>
                  <td>
                    {t(outcomeNames[o.outcome] ?? o.outcome)}
                    {o.reason && (
                      <span className="muted" dir="ltr">
                        {' '}
                        · {o.reason}
                      </span>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </form>
  );
}
