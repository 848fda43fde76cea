import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type AccountRequestItem, ApiError, api, type UserItem } from '../api.js';
import { ErrorNote, Loading, useFormatDate, useLoad } from '../components/common.js';
import { msg, roleLabel, roles } from '../lib/index.js';
import { useSession } from '../session.js';

/** A password the server made: shown once, in a box the admin copies from, with the warning that goes with it. */
function OneTimePassword({ username, password }: { username: string; password: string }) {
  const { t } = useTranslation();
  return (
    <div className="receipt warning" role="status" data-once-password>
      <p>{t('One-time password for {{username}}. It is shown only now:', { username })}</p>
      <p dir="ltr" className="code">
        {password}
      </p>
      <p>{t('Hand it over in person or by a safe channel. It must be changed at the first sign-in.')}</p>
    </div>
  );
}

/** The refusal that protects the installation: no change may leave it without an admin who can sign in. */
function LastAdminNote({ error }: { error: unknown }) {
  const { t } = useTranslation();
  if (
    !(error instanceof ApiError) ||
    error.code !== 'conflict' ||
    !/last admin/.test(error.problem.detail ?? '')
  )
    return <ErrorNote error={error} />;
  return (
    <div className="error-note" role="alert" data-last-admin>
      <p>
        {t(
          'This is the last administrator who can sign in, so this change was refused: nobody could manage the accounts afterwards. Make another user an administrator first, then try again.',
        )}
      </p>
    </div>
  );
}

/** Why a reset or a role change waits for a second admin: said where it is asked for and where it is decided. */
function SecondAdminWhy() {
  const { t } = useTranslation();
  return (
    <p className="muted">
      {t(
        'A reset that would leave a family liaison or an investigator without a set-up authenticator app needs a second administrator: whoever holds the one-time password could otherwise sign in as that person, set up their own app and read families’ contact details or evidence originals in their name. The administrator who approves receives the one-time password.',
      )}{' '}
      {t(
        'Making an existing account a family liaison or an investigator needs a second administrator too: otherwise one administrator could lower its role, reset its password in one step and raise the role again.',
      )}
    </p>
  );
}

/** The refusal when no second admin exists: the command line on the server is the way left. */
function ResetNote({ error }: { error: unknown }) {
  const { t } = useTranslation();
  if (
    !(error instanceof ApiError) ||
    error.code !== 'conflict' ||
    !/second admin is needed/.test(error.problem.detail ?? '')
  )
    return <LastAdminNote error={error} />;
  if (/set-role/.test(error.problem.detail ?? ''))
    return (
      <div className="error-note" role="alert" data-second-admin-needed>
        <p>
          {t(
            'Another administrator must approve this role, which reads contact details or originals the account could not read before, and there is no other administrator who can sign in. Make a second administrator, or change the role on the server itself with this command:',
          )}
        </p>
        <p dir="ltr" className="code">
          athar users set-role USERNAME ROLE
        </p>
      </div>
    );
  return (
    <div className="error-note" role="alert" data-second-admin-needed>
      <p>
        {t(
          'Another administrator must approve this reset, and there is no other administrator who can sign in. Make a second administrator, or reset the password on the server itself with this command:',
        )}
      </p>
      <p dir="ltr" className="code">
        athar users reset-password USERNAME --reset-totp
      </p>
    </div>
  );
}

function AddUser({ onAdded }: { onAdded: () => void }) {
  const { t } = useTranslation();
  const [form, setForm] = useState({
    username: '',
    displayName: '',
    role: 'documenter',
    totpRequired: false,
  });
  const [made, setMade] = useState<{ username: string; password: string } | null>(null);
  const [error, setError] = useState<unknown>(null);

  async function submit(e: FormEvent) {
    e.preventDefault();
    setError(null);
    setMade(null);
    try {
      const answer = await api.post<{ user: UserItem; password: string }>('/api/users', {
        username: form.username.trim(),
        ...(form.displayName.trim() ? { displayName: form.displayName.trim() } : {}),
        role: form.role,
        ...(form.totpRequired ? { totpRequired: true } : {}),
      });
      setMade({ username: answer.user.username, password: answer.password });
      setForm({ username: '', displayName: '', role: form.role, totpRequired: false });
      onAdded();
    } catch (err) {
      setError(err);
    }
  }

  return (
    <form onSubmit={submit} className="form search-form" aria-labelledby="add-user">
      <h2 id="add-user" className="wide">
        {t('Add a user')}
      </h2>
      <label>
        {t('User name')}
        <input
          name="username"
          required
          autoComplete="off"
          dir="ltr"
          value={form.username}
          onChange={(e) => setForm({ ...form, username: e.target.value })}
        />
      </label>
      <label>
        {t('Display name')}
        <input
          name="displayName"
          dir="auto"
          value={form.displayName}
          onChange={(e) => setForm({ ...form, displayName: e.target.value })}
        />
      </label>
      <label>
        {t('Role')}
        <select name="role" value={form.role} onChange={(e) => setForm({ ...form, role: e.target.value })}>
          {roles.map((r) => (
            <option key={r} value={r}>
              {t(roleLabel(r))}
            </option>
          ))}
        </select>
      </label>
      <label className="check">
        <input
          type="checkbox"
          name="totpRequired"
          checked={form.totpRequired}
          onChange={(e) => setForm({ ...form, totpRequired: e.target.checked })}
        />
        {t('Require an authenticator app')}
      </label>
      <button type="submit">{t('Add the user')}</button>
      <div className="wide">
        <ErrorNote error={error} />
        {made && <OneTimePassword {...made} />}
      </div>
    </form>
  );
}

/** One account's changes: role, disabling, TOTP requirement, password reset; each answered in place. */
function ManageUser({ user, onChanged }: { user: UserItem; onChanged: () => void }) {
  const { t } = useTranslation();
  const [role, setRole] = useState(user.role);
  const [resetTotp, setResetTotp] = useState(false);
  const [password, setPassword] = useState<string | null>(null);
  const [asked, setAsked] = useState(false);
  const [roleAsked, setRoleAsked] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [saved, setSaved] = useState<string | null>(null);

  async function patch(body: Record<string, unknown>, done: string) {
    setError(null);
    setSaved(null);
    setRoleAsked(false);
    try {
      const answer = await api.patch<{ user: UserItem } | { request: AccountRequestItem }>(
        `/api/users/${encodeURIComponent(user.id)}`,
        body,
      );
      // A role that newly reads contacts or originals waits for a second admin (202).
      if ('request' in answer) {
        setRoleAsked(true);
        // The account keeps its role until another admin approves: the choice shows what it is.
        setRole(user.role);
      } else setSaved(done);
      onChanged();
    } catch (err) {
      setError(err);
    }
  }

  async function reset() {
    setError(null);
    setSaved(null);
    setAsked(false);
    try {
      const answer = await api.post<{ password: string } | { request: AccountRequestItem }>(
        `/api/users/${encodeURIComponent(user.id)}/password-reset`,
        { resetTotp },
      );
      if ('password' in answer) setPassword(answer.password);
      else setAsked(true);
      onChanged();
    } catch (err) {
      setError(err);
    }
  }

  return (
    <div className="manage">
      <form
        className="inline-form"
        onSubmit={(e) => {
          e.preventDefault();
          void patch({ role }, msg('The role was changed.'));
        }}
      >
        <label>
          {t('Role')}
          <select name="role" value={role} onChange={(e) => setRole(e.target.value)}>
            {roles.map((r) => (
              <option key={r} value={r}>
                {t(roleLabel(r))}
              </option>
            ))}
          </select>
        </label>
        <button type="submit" disabled={role === user.role}>
          {t('Change the role')}
        </button>
      </form>
      <div className="buttons">
        <button
          type="button"
          className="secondary"
          onClick={() =>
            void patch(
              { disabled: !user.disabled },
              user.disabled ? msg('The account was enabled.') : msg('The account was disabled.'),
            )
          }
        >
          {user.disabled ? t('Enable the account') : t('Disable the account')}
        </button>
        <button
          type="button"
          className="secondary"
          onClick={() =>
            void patch(
              { totpRequired: !user.totpRequired },
              user.totpRequired
                ? msg('An authenticator app is no longer required.')
                : msg('An authenticator app is now required.'),
            )
          }
        >
          {user.totpRequired ? t('Stop requiring an authenticator app') : t('Require an authenticator app')}
        </button>
      </div>
      <div className="inline-form">
        <label className="check">
          <input type="checkbox" checked={resetTotp} onChange={(e) => setResetTotp(e.target.checked)} />
          {t('Also set up the authenticator app again (a lost phone)')}
        </label>
        <button type="button" className="secondary" onClick={() => void reset()}>
          {t('Reset the password')}
        </button>
      </div>
      {saved && (
        <p role="status" className="ok">
          {t(saved)}
        </p>
      )}
      <ResetNote error={error} />
      {asked && (
        <div role="status" className="receipt" data-reset-requested>
          <p>
            {t(
              'The reset was asked for. Another administrator must approve it under “Account changes awaiting a second administrator”.',
            )}
          </p>
          <SecondAdminWhy />
        </div>
      )}
      {roleAsked && (
        <div role="status" className="receipt" data-role-change-requested>
          <p>
            {t(
              'The role change was asked for. Another administrator must approve it under “Account changes awaiting a second administrator”.',
            )}
          </p>
          <SecondAdminWhy />
        </div>
      )}
      {password && <OneTimePassword username={user.username} password={password} />}
    </div>
  );
}

/** Resets and role changes awaiting a second admin: the one who asked may cancel; any other admin decides. */
function PendingRequests({ items, onChanged }: { items: AccountRequestItem[]; onChanged: () => void }) {
  const { t } = useTranslation();
  const formatDate = useFormatDate();
  const { session } = useSession();
  const [shown, setShown] = useState<{ username: string; password: string } | null>(null);
  const [roleChanged, setRoleChanged] = useState(false);
  const [error, setError] = useState<unknown>(null);

  async function act(r: AccountRequestItem, verb: 'approve' | 'refuse' | 'cancel') {
    setError(null);
    setShown(null);
    setRoleChanged(false);
    const at = `/api/account-requests/${encodeURIComponent(r.id)}`;
    try {
      if (verb === 'cancel') await api.delete(at);
      else if (verb === 'refuse') await api.post(`${at}/refuse`, {});
      else {
        const answer = await api.post<{ password?: string }>(`${at}/approve`, {});
        if (answer.password) setShown({ username: r.username ?? r.userId, password: answer.password });
        else setRoleChanged(true);
      }
      onChanged();
    } catch (err) {
      setError(err);
    }
  }

  if (items.length === 0 && !shown && !roleChanged && !error) return null;
  return (
    <section aria-labelledby="pending-requests" data-pending-requests>
      <h2 id="pending-requests">{t('Account changes awaiting a second administrator')}</h2>
      <SecondAdminWhy />
      {items.length > 0 && (
        <div className="table-scroll">
          <table>
            <thead>
              <tr>
                <th scope="col">{t('User name')}</th>
                <th scope="col">{t('Role')}</th>
                <th scope="col">{t('Change asked for')}</th>
                <th scope="col">{t('Asked by')}</th>
                <th scope="col">{t('Lapses')}</th>
                <th scope="col">{t('Decision')}</th>
              </tr>
            </thead>
            <tbody>
              {items.map((r) => (
                <tr key={r.id} data-request-for={r.username ?? r.userId} data-request-kind={r.kind}>
                  <th scope="row">
                    <bdi dir="ltr">{r.username ?? r.userId}</bdi>
                  </th>
                  <td>{r.role ? t(roleLabel(r.role)) : ''}</td>
                  <td>
                    {r.kind === 'role_change' ? (
                      t('Role: {{role}}', { role: t(roleLabel(r.toRole ?? '')) })
                    ) : (
                      <>
                        {t('A password reset')}
                        {r.resetTotp && <span className="muted block">{t('and the authenticator app')}</span>}
                      </>
                    )}
                  </td>
                  <td>
                    <bdi dir="auto">{r.requestedByName ?? r.requestedBy}</bdi>
                    <span className="muted block">{formatDate(r.requestedAt)}</span>
                  </td>
                  <td>{formatDate(r.expiresAt)}</td>
                  <td>
                    {r.requestedBy === session?.user.id ? (
                      <div className="buttons">
                        <span className="muted">{t('You asked for it: another administrator decides.')}</span>
                        <button type="button" className="secondary" onClick={() => void act(r, 'cancel')}>
                          {t('Cancel the request')}
                        </button>
                      </div>
                    ) : (
                      <div className="buttons">
                        <button type="button" onClick={() => void act(r, 'approve')}>
                          {r.kind === 'role_change'
                            ? t('Approve the role change')
                            : t('Approve and show the password')}
                        </button>
                        <button type="button" className="secondary" onClick={() => void act(r, 'refuse')}>
                          {t('Refuse')}
                        </button>
                      </div>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <LastAdminNote error={error} />
      {roleChanged && (
        <p role="status" className="ok">
          {t('The role was changed.')}
        </p>
      )}
      {shown && <OneTimePassword {...shown} />}
    </section>
  );
}

export function UsersScreen() {
  const { t } = useTranslation();
  const formatDate = useFormatDate();
  const {
    data,
    error,
    loading,
    reload: reloadUsers,
  } = useLoad(() => api.get<{ items: UserItem[] }>('/api/users'), []);
  const pending = useLoad(() => api.get<{ items: AccountRequestItem[] }>('/api/account-requests'), []);
  const reload = () => {
    reloadUsers();
    pending.reload();
  };
  return (
    <section>
      <h1 tabIndex={-1}>{t('Users')}</h1>
      <AddUser onAdded={reload} />
      <ErrorNote error={pending.error} />
      {pending.data && <PendingRequests items={pending.data.items} onChanged={reload} />}
      <h2>{t('Accounts')}</h2>
      {loading && !data && <Loading />}
      <ErrorNote error={error} />
      {data && (
        <div className="table-scroll">
          <table className="users">
            <thead>
              <tr>
                <th scope="col">{t('User name')}</th>
                <th scope="col">{t('Role')}</th>
                <th scope="col">{t('Last sign-in')}</th>
                <th scope="col">{t('Authenticator app')}</th>
                <th scope="col">{t('State')}</th>
                <th scope="col">{t('Change')}</th>
              </tr>
            </thead>
            <tbody>
              {data.items.map((u) => (
                <tr key={u.id} data-user={u.username}>
                  <th scope="row">
                    <bdi dir="ltr">{u.username}</bdi>
                    {u.displayName && (
                      <bdi className="muted block" dir="auto">
                        {u.displayName}
                      </bdi>
                    )}
                  </th>
                  <td>{t(roleLabel(u.role))}</td>
                  <td>{u.lastSignInAt ? formatDate(u.lastSignInAt) : t('never')}</td>
                  <td>
                    {u.totpEnrolled
                      ? t('set up')
                      : u.totpRequired
                        ? t('required, not yet set up')
                        : t('not required')}
                  </td>
                  <td>
                    {u.disabled ? (
                      <strong className="danger-text">{t('disabled')}</strong>
                    ) : u.mustChangePassword ? (
                      t('must change the password')
                    ) : (
                      t('active')
                    )}
                  </td>
                  <td>
                    <details className="manage-toggle">
                      <summary>
                        {t('Change')}
                        <span className="visually-hidden"> {u.username}</span>
                      </summary>
                      <ManageUser user={u} onChanged={reload} />
                    </details>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
