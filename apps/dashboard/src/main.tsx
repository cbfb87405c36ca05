import '@agentpay/ui/styles.css';
import {
  createRouter,
  I18nProvider,
  InvitationPage,
  Loading,
  MayProvider,
  match,
  Page,
  Shell,
  SignInPage,
  useI18n,
  useSession,
} from '@agentpay/ui';
import { render } from 'preact';
import { dictionaries, PAGES } from './app-pages';
import { dashboardApi } from './dashboard-api';

// The merchant dashboard (docs/console.md): served by the gateway at /dashboard/ on the public port. Its
// people sign in with the same machinery as operators, under /dashboard/api (CONTRACT section 17).

const router = createRouter('/dashboard/');
const SIGN_IN = 'sign-in';
const api = dashboardApi(() => {
  if (!location.pathname.endsWith(`/${SIGN_IN}`)) router.navigate(SIGN_IN, { replace: true });
});

function App() {
  const { t } = useI18n();
  const { path } = router.useLocation();
  // A new tab (an order opened from the list, a link in an e-mail) has the browser's cookie but not this
  // tab's CSRF token: the server is asked for the session before the sign-in form is shown.
  const { session, setSession, checking } = useSession(api.client);
  const invitation = match('invitations/:token', path);

  if (!session && checking && !invitation?.['token'] && path !== SIGN_IN) {
    return (
      <Shell appName={t('app.name')} nav={[]} currentPath={path} Link={router.Link}>
        <Loading />
      </Shell>
    );
  }
  if (invitation?.['token'] || path === SIGN_IN || !session) {
    return (
      <Shell appName={t('app.name')} nav={[]} currentPath={path} Link={router.Link}>
        {invitation?.['token'] ? (
          <InvitationPage
            api={api.client}
            token={invitation['token']}
            onDone={() => router.navigate(SIGN_IN)}
          />
        ) : (
          <SignInPage
            api={api.client}
            onSignedIn={(signedIn) => {
              setSession(signedIn);
              router.navigate('');
            }}
          />
        )}
      </Shell>
    );
  }

  const nav = PAGES.filter((p) => p.nav).map((p) => ({ to: p.pattern, label: t(p.nav ?? '') }));
  let page = <Page title={t('notFound.title')}>{null}</Page>;
  for (const candidate of PAGES) {
    const params = match(candidate.pattern, path);
    if (params) {
      page = candidate.render({ api, router, params });
      break;
    }
  }

  return (
    <Shell
      appName={t('app.name')}
      nav={nav}
      currentPath={path}
      Link={router.Link}
      userEmail={session.user.email}
      meLink="me"
      onSignOut={async () => {
        await api.client.signOut().catch(() => undefined);
        setSession(null);
        router.navigate(SIGN_IN);
      }}
    >
      <MayProvider api={api.client} mePath="/dashboard/api/me" sessionKey={session.csrfToken}>
        {page}
      </MayProvider>
    </Shell>
  );
}

const root = document.getElementById('app');
if (root)
  render(
    <I18nProvider dictionaries={dictionaries}>
      <App />
    </I18nProvider>,
    root,
  );
