import { lazy, Suspense, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { BrowserRouter, Link, Navigate, NavLink, Outlet, Route, Routes, useLocation } from 'react-router';
import { FreeNotice, LanguageSwitch, Loading } from './components/common.js';
import { roleLabel, screensFor } from './lib/index.js';
import { AccountScreen } from './screens/account.js';
import { AuditScreen } from './screens/audit.js';
import { BackupsScreen } from './screens/backups.js';
import { BranchesScreen, BranchScreen } from './screens/branches.js';
import { EvidenceScreen } from './screens/evidence.js';
import { EvidenceGridScreen } from './screens/evidence-grid.js';
import { ExportsScreen } from './screens/exports.js';
import { IdentificationsScreen } from './screens/identifications.js';
import { ImportsScreen } from './screens/imports.js';
import { PersonScreen } from './screens/person.js';
import { ImportScreen, IngestScreen } from './screens/progress.js';
import { NewRecordScreen, RecordScreen } from './screens/record.js';
import { ReportScreen } from './screens/report.js';
import { FamilyReportScreen, FamilyReportsScreen } from './screens/reports.js';
import { ScanRowsScreen } from './screens/scan-rows.js';
import { SearchScreen } from './screens/search.js';
import { SignInScreen } from './screens/sign-in.js';
import { StatusScreen } from './screens/status.js';
import { UsersScreen } from './screens/users.js';
import { SessionProvider, useSession } from './session.js';

// The charting library is large; families on phones never load it (only the dashboard and review queue do).
const DashboardScreen = lazy(() =>
  import('./screens/dashboard.js').then((m) => ({ default: m.DashboardScreen })),
);
const EstimateScreen = lazy(() =>
  import('./screens/estimate.js').then((m) => ({ default: m.EstimateScreen })),
);
const EstimateMethodsScreen = lazy(() =>
  import('./screens/estimate.js').then((m) => ({ default: m.EstimateMethodsScreen })),
);
const ReviewScreen = lazy(() => import('./screens/review.js').then((m) => ({ default: m.ReviewScreen })));

function Health() {
  const { t } = useTranslation();
  const [state, setState] = useState<'checking' | 'ok' | 'down'>('checking');
  useEffect(() => {
    fetch('/healthz')
      .then((r) => setState(r.ok ? 'ok' : 'down'))
      .catch(() => setState('down'));
  }, []);
  const text = state === 'checking' ? t('Checking…') : state === 'ok' ? t('Running') : t('Unavailable');
  return (
    <p className="health" data-state={state}>
      {t('Service status')}: <output>{text}</output>
    </p>
  );
}

function Home() {
  const { t } = useTranslation();
  const { session } = useSession();
  return (
    <>
      <p className="lead">
        {t(
          'Keeping the evidence of Syria’s detainees and disappeared, and bringing families and that evidence together.',
        )}
      </p>
      <FreeNotice />
      <nav className="actions" aria-label={t('Main actions')}>
        <Link to="/report">{t('Report a missing relative')}</Link>
        <Link to="/status">{t('Check the status of a report')}</Link>
        {session ? (
          <Link to={screensFor(session.permissions)[0]?.path ?? '/account'}>{t('Open the workspace')}</Link>
        ) : (
          <Link to="/sign-in">{t('Staff sign-in')}</Link>
        )}
      </nav>
      <Health />
    </>
  );
}

function StaffNav() {
  const { t } = useTranslation();
  const { session, signOut } = useSession();
  if (!session) return null;
  return (
    <div className="staff-bar">
      <nav aria-label={t('Workspace')} className="staff-nav">
        <ul>
          {screensFor(session.permissions).map((s) => (
            <li key={s.path}>
              <NavLink to={s.path}>{t(s.label)}</NavLink>
            </li>
          ))}
        </ul>
      </nav>
      <div className="who">
        <span dir="auto">{session.user.displayName ?? session.user.username}</span>
        <span className="role">{t(roleLabel(session.user.role))}</span>
        <NavLink to="/account">{t('Your account')}</NavLink>
        <button type="button" className="link-button" onClick={() => void signOut()}>
          {t('Sign out')}
        </button>
      </div>
    </div>
  );
}

function Shell() {
  const { t } = useTranslation();
  const location = useLocation();
  // Moves focus to the page heading on navigation so keyboard and screen-reader users start at the top.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on each navigation.
  useEffect(() => {
    document.querySelector<HTMLElement>('main h1, main h2')?.focus();
  }, [location.pathname]);
  return (
    <div className="shell">
      <a className="skip-link" href="#main">
        {t('Skip to content')}
      </a>
      <header className="shell-header">
        <Link to="/" className="brand">
          {t('athar')}
        </Link>
        <LanguageSwitch />
      </header>
      <StaffNav />
      <main id="main" className="shell-main">
        <Suspense fallback={<Loading />}>
          <Outlet />
        </Suspense>
      </main>
    </div>
  );
}

/** Staff screens need a session and the screen's permission; otherwise sign-in or a plain refusal. */
function RequirePermission({
  permission,
  children,
}: {
  permission: string | readonly string[];
  children: React.ReactNode;
}) {
  const { t } = useTranslation();
  const { session, can } = useSession();
  const location = useLocation();
  if (session === undefined) return <Loading />;
  if (session === null)
    return <Navigate to={`/sign-in?next=${encodeURIComponent(location.pathname)}`} replace />;
  if (session.totpEnrolmentRequired || session.user.mustChangePassword)
    return <Navigate to="/account" replace />;
  if (!(typeof permission === 'string' ? can(permission) : permission.some(can)))
    return (
      <p role="alert" className="error-note">
        {t('Your role does not allow this.')}
      </p>
    );
  return <>{children}</>;
}

function NotFound() {
  const { t } = useTranslation();
  return (
    <section>
      <h1 tabIndex={-1}>{t('Page not found')}</h1>
      <Link to="/">{t('Back to the start page')}</Link>
    </section>
  );
}

const guarded = (permission: string | readonly string[], element: React.ReactNode) => (
  <RequirePermission permission={permission}>{element}</RequirePermission>
);

export function App() {
  return (
    <SessionProvider>
      <BrowserRouter>
        <Routes>
          <Route element={<Shell />}>
            <Route index element={<Home />} />
            <Route path="report" element={<ReportScreen />} />
            <Route path="status" element={<StatusScreen />} />
            <Route path="sign-in" element={<SignInScreen />} />
            <Route path="account" element={<AccountScreen />} />
            <Route path="dashboard" element={guarded('stats:read', <DashboardScreen />)} />
            <Route path="search" element={guarded('records:read', <SearchScreen />)} />
            <Route path="records/new" element={guarded('records:write', <NewRecordScreen />)} />
            <Route path="records/:id" element={guarded('records:read', <RecordScreen />)} />
            <Route path="persons/:id" element={guarded('persons:read', <PersonScreen />)} />
            <Route path="evidence" element={guarded('evidence:read', <EvidenceGridScreen />)} />
            <Route path="evidence/:id" element={guarded('evidence:read', <EvidenceScreen />)} />
            <Route path="evidence/:id/rows" element={guarded('evidence:read', <ScanRowsScreen />)} />
            <Route path="review" element={guarded('review:read', <ReviewScreen />)} />
            <Route
              path="identifications"
              element={guarded('identifications:read', <IdentificationsScreen />)}
            />
            <Route path="ingest" element={guarded('evidence:read', <IngestScreen />)} />
            <Route path="imports" element={guarded('records:write', <ImportsScreen />)} />
            <Route path="imports/:id" element={guarded('records:write', <ImportScreen />)} />
            <Route path="branches" element={guarded('places:read', <BranchesScreen />)} />
            <Route path="branches/:id" element={guarded('places:read', <BranchScreen />)} />
            <Route path="reports" element={guarded('reports:read', <FamilyReportsScreen />)} />
            <Route path="reports/:id" element={guarded('reports:read', <FamilyReportScreen />)} />
            <Route
              path="exports"
              element={guarded(['exports:request', 'exports:approve'], <ExportsScreen />)}
            />
            <Route path="estimate" element={guarded('stats:read', <EstimateScreen />)} />
            <Route path="estimate/methods" element={<EstimateMethodsScreen />} />
            <Route path="audit" element={guarded('audit:read', <AuditScreen />)} />
            <Route path="users" element={guarded('users:manage', <UsersScreen />)} />
            <Route path="backups" element={guarded('backups:manage', <BackupsScreen />)} />
            <Route path="*" element={<NotFound />} />
          </Route>
        </Routes>
      </BrowserRouter>
    </SessionProvider>
  );
}
