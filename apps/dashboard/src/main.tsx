import '@agentpay/ui/styles.css';
import {
  createApiClient,
  createRouter,
  defineDictionaries,
  I18nProvider,
  InvitationPage,
  match,
  mergeDictionaries,
  Notice,
  Page,
  type Session,
  Shell,
  SignInPage,
  sharedMessages,
  useI18n,
} from '@agentpay/ui';
import { render } from 'preact';
import { useState } from 'preact/hooks';

// The merchant dashboard (docs/console.md): served by the gateway at /dashboard/ on the public port. Its
// people sign in with the same machinery as operators, under /dashboard/api (CONTRACT section 17).

const router = createRouter('/dashboard/');
const SIGN_IN = 'sign-in';
const api = createApiClient({
  sessionBase: '/dashboard/api',
  onUnauthorized() {
    if (!location.pathname.endsWith(`/${SIGN_IN}`)) router.navigate(SIGN_IN, { replace: true });
  },
});

const dictionaries = mergeDictionaries(
  sharedMessages,
  defineDictionaries(
    {
      'app.name': 'Panel agentpay',
      'home.title': 'Tu comercio',
      'home.signedIn': 'Sesión iniciada como {email}.',
      'home.soon': 'Aquí verás tus órdenes, transferencias, saldo, llaves y equipo.',
      'notFound.title': 'Página no encontrada',
    },
    {
      'app.name': 'agentpay dashboard',
      'home.title': 'Your business',
      'home.signedIn': 'Signed in as {email}.',
      'home.soon': 'Your orders, transfers, balance, keys and team will be here.',
      'notFound.title': 'Page not found',
    },
  ),
);

function App() {
  const { t } = useI18n();
  const { path } = router.useLocation();
  const [session, setSession] = useState<Session | null>(api.session());
  const invitation = match('invitations/:token', path);

  let page = <Page title={t('notFound.title')}>{null}</Page>;
  if (invitation?.['token']) {
    page = <InvitationPage api={api} token={invitation['token']} onDone={() => router.navigate(SIGN_IN)} />;
  } else if (path === SIGN_IN || (path === '' && !session)) {
    page = (
      <SignInPage
        api={api}
        onSignedIn={(signedIn) => {
          setSession(signedIn);
          router.navigate('');
        }}
      />
    );
  } else if (path === '' && session) {
    page = (
      <Page title={t('home.title')}>
        <p>{t('home.signedIn', { email: session.user.email })}</p>
        <Notice kind="info">{t('home.soon')}</Notice>
      </Page>
    );
  }

  return (
    <Shell
      appName={t('app.name')}
      nav={[]}
      currentPath={path}
      Link={router.Link}
      userEmail={session?.user.email}
      onSignOut={
        session
          ? async () => {
              await api.signOut().catch(() => undefined);
              setSession(null);
              router.navigate(SIGN_IN);
            }
          : undefined
      }
    >
      {page}
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
