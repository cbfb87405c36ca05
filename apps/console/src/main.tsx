import '@agentpay/ui/styles.css';
import {
  createRouter,
  I18nProvider,
  InvitationPage,
  match,
  mergeDictionaries,
  Page,
  type Session,
  Shell,
  SignInPage,
  sharedMessages,
  useI18n,
} from '@agentpay/ui';
import { render } from 'preact';
import { useState } from 'preact/hooks';
import { consoleApi } from './console-api';
import { consoleMessages } from './messages';
import { HomePage } from './pages/home';
import { MerchantPage } from './pages/merchant';
import { MerchantsPage } from './pages/merchants';
import { ReconciliationPage } from './pages/reconciliation';
import { RoutesPage } from './pages/routes';

// The operator console (docs/console.md): served by the gateway at /console/ on the admin port.

const router = createRouter('/console/');
const dictionaries = mergeDictionaries(sharedMessages, consoleMessages);

/** Pages open to anyone: the rest need a session, and the API's 401 brings the person back here. */
const SIGN_IN = 'sign-in';
const api = consoleApi(() => {
  if (!location.pathname.endsWith(`/${SIGN_IN}`)) router.navigate(SIGN_IN, { replace: true });
});

function App() {
  const { t } = useI18n();
  const { path } = router.useLocation();
  const [session, setSession] = useState<Session | null>(api.client.session());

  const invitation = match('invitations/:token', path);
  if (invitation?.['token']) {
    return (
      <Shell appName={t('app.name')} nav={[]} currentPath={path} Link={router.Link}>
        <InvitationPage
          api={api.client}
          token={invitation['token']}
          onDone={() => router.navigate(SIGN_IN)}
        />
      </Shell>
    );
  }
  if (path === SIGN_IN) {
    return (
      <Shell appName={t('app.name')} nav={[]} currentPath={path} Link={router.Link}>
        <SignInPage
          api={api.client}
          onSignedIn={(signedIn) => {
            setSession(signedIn);
            router.navigate('');
          }}
        />
      </Shell>
    );
  }

  const nav = [
    { to: '', label: t('nav.home') },
    { to: 'merchants', label: t('nav.merchants') },
    { to: 'routes', label: t('nav.routes') },
    { to: 'reconciliation', label: t('nav.reconciliation') },
  ];
  const merchant = match('merchants/:mchNo', path);
  let page = <NotFound />;
  if (path === '') page = <HomePage api={api} Link={router.Link} />;
  else if (path === 'merchants') page = <MerchantsPage api={api} router={router} />;
  else if (merchant?.['mchNo'])
    page = <MerchantPage api={api} mchNo={merchant['mchNo']} Link={router.Link} />;
  else if (path === 'routes') page = <RoutesPage api={api} />;
  else if (path === 'reconciliation') page = <ReconciliationPage api={api} router={router} />;

  return (
    <Shell
      appName={t('app.name')}
      nav={nav}
      currentPath={path}
      Link={router.Link}
      userEmail={session?.user.email}
      onSignOut={async () => {
        await api.client.signOut().catch(() => undefined);
        setSession(null);
        router.navigate(SIGN_IN);
      }}
    >
      {page}
    </Shell>
  );
}

function NotFound() {
  const { t } = useI18n();
  return <Page title={t('notFound.title')}>{null}</Page>;
}

const root = document.getElementById('app');
if (root)
  render(
    <I18nProvider dictionaries={dictionaries}>
      <App />
    </I18nProvider>,
    root,
  );
