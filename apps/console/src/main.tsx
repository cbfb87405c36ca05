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
  useMay,
  useSession,
} from '@agentpay/ui';
import { type ComponentChildren, render } from 'preact';
import { dictionaries, PAGES } from './app-pages';
import { consoleApi } from './console-api';

// The operator console (docs/console.md): served by the gateway at /console/ on the admin port.

const router = createRouter('/console/');

/** Pages open to anyone: the rest need a session, and the API's 401 brings the person back here. */
const SIGN_IN = 'sign-in';
const api = consoleApi(() => {
  if (!location.pathname.endsWith(`/${SIGN_IN}`)) router.navigate(SIGN_IN, { replace: true });
});

function App() {
  const { t } = useI18n();
  const { path } = router.useLocation();
  // A new tab (a link opened beside this one, a restored browser) has the browser's cookie but not this tab's
  // CSRF token: the server is asked for the session before the pages, whose actions need the token.
  const { session, setSession, checking } = useSession(api.client);

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

  if (!session && checking) {
    return (
      <Shell appName={t('app.name')} nav={[]} currentPath={path} Link={router.Link}>
        <Loading />
      </Shell>
    );
  }

  let page = <NotFound />;
  for (const candidate of PAGES) {
    const params = match(candidate.pattern, path);
    if (params) {
      page = candidate.render({ api, router, params });
      break;
    }
  }

  return (
    <MayProvider api={api.client} mePath="/admin/me" sessionKey={session?.csrfToken}>
      <SignedInShell
        path={path}
        userEmail={session?.user.email}
        onSignOut={async () => {
          await api.client.signOut().catch(() => undefined);
          setSession(null);
          router.navigate(SIGN_IN);
        }}
      >
        {page}
      </SignedInShell>
    </MayProvider>
  );
}

/** The shell of the signed-in pages: its navigation leaves out the pages the person's roles may not read. */
function SignedInShell(props: {
  path: string;
  userEmail: string | undefined;
  onSignOut(): void;
  children: ComponentChildren;
}) {
  const { t } = useI18n();
  const may = useMay();
  const nav = PAGES.filter((p) => p.nav && (!p.navNeeds || may(p.navNeeds))).map((p) => ({
    to: p.pattern,
    label: t(p.nav ?? ''),
  }));
  return (
    <Shell
      appName={t('app.name')}
      nav={nav}
      currentPath={props.path}
      Link={router.Link}
      userEmail={props.userEmail}
      meLink="me"
      onSignOut={props.onSignOut}
    >
      {props.children}
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
