/** A file the user chose or dropped, with its folder path inside what was chosen ("photos/215/a.jpg"). */
export interface PickedFile {
  path: string;
  file: File;
}

// The parts of the File and Directory Entries API that a drop gives (Chromium, Firefox, Safari).
interface Entry {
  isFile: boolean;
  isDirectory: boolean;
  name: string;
  fullPath: string;
  file?(ok: (f: File) => void, fail: (e: unknown) => void): void;
  createReader?(): { readEntries(ok: (entries: Entry[]) => void, fail: (e: unknown) => void): void };
}

async function walk(entry: Entry, out: PickedFile[]): Promise<void> {
  if (entry.isFile && entry.file) {
    const file = await new Promise<File>((ok, fail) => entry.file?.(ok, fail));
    out.push({ path: entry.fullPath.replace(/^\/+/, '') || file.name, file });
    return;
  }
  if (entry.isDirectory && entry.createReader) {
    const reader = entry.createReader();
    // readEntries answers in batches until it answers none.
    for (;;) {
      const batch = await new Promise<Entry[]>((ok, fail) => reader.readEntries(ok, fail));
      if (batch.length === 0) break;
      for (const child of batch) await walk(child, out);
    }
  }
}

/** Every file of a drop, walking dropped folders; plain files where the browser gives no entries. */
export async function droppedFiles(data: DataTransfer): Promise<PickedFile[]> {
  const items = [...data.items].filter((i) => i.kind === 'file');
  const entries: Entry[] = [];
  for (const item of items) {
    const entry = item.webkitGetAsEntry?.() as unknown as Entry | null | undefined;
    if (entry) entries.push(entry);
  }
  if (entries.length === 0) return [...data.files].map((file) => ({ path: file.name, file }));
  const out: PickedFile[] = [];
  for (const entry of entries) await walk(entry, out);
  return out;
}

/** Files from an input (a folder input gives each file's webkitRelativePath). */
export function pickedFiles(list: FileList | null): PickedFile[] {
  return [...(list ?? [])].map((file) => ({
    path: (file as File & { webkitRelativePath?: string }).webkitRelativePath || file.name,
    file,
  }));
}
