import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useState } from 'react';
import { ApiError, api, type SessionAnswer, sessionEndedEvent, setCsrfToken } from './api.js';

interface SessionState {
  /** undefined while the first GET /api/session is in flight; null when nobody is signed in. */
  session: SessionAnswer | null | undefined;
  signedIn(answer: SessionAnswer): void;
  signOut(): Promise<void>;
  can(permission: string): boolean;
}

const SessionContext = createContext<SessionState | null>(null);

export function SessionProvider({ children }: { children: ReactNode }) {
  const [session, setSession] = useState<SessionAnswer | null | undefined>(undefined);

  useEffect(() => {
    api
      .get<SessionAnswer>('/api/session')
      .then((answer) => {
        setCsrfToken(answer.csrfToken);
        setSession(answer);
      })
      .catch((error: unknown) => {
        // 401 is the ordinary "nobody signed in"; anything else also leaves the public pages usable.
        if (!(error instanceof ApiError) || error.status !== 401) console.warn('session check failed', error);
        setSession(null);
      });
  }, []);

  useEffect(() => {
    const ended = () => {
      setCsrfToken(null);
      setSession(null);
    };
    window.addEventListener(sessionEndedEvent, ended);
    return () => window.removeEventListener(sessionEndedEvent, ended);
  }, []);

  const signedIn = useCallback((answer: SessionAnswer) => {
    setCsrfToken(answer.csrfToken);
    setSession(answer);
  }, []);

  const signOut = useCallback(async () => {
    try {
      await api.delete('/api/session');
    } finally {
      setCsrfToken(null);
      setSession(null);
    }
  }, []);

  const value = useMemo<SessionState>(
    () => ({
      session,
      signedIn,
      signOut,
      can: (permission) => session?.permissions.includes(permission) ?? false,
    }),
    [session, signedIn, signOut],
  );
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

export function useSession(): SessionState {
  const value = useContext(SessionContext);
  if (!value) throw new Error('useSession outside SessionProvider');
  return value;
}
