import { defineDictionaries, mergeDictionaries, type Router, sharedMessages } from '@agentpay/ui';
import type { JSX } from 'preact';
import type { DashboardApi } from './dashboard-api';
import { BalancePage, balanceMessages, HomePage } from './pages/balance';
import { BatchesPage, batchesMessages } from './pages/batches';
import { CallbacksPage, callbacksMessages } from './pages/callbacks';
import { KeysPage, keysMessages } from './pages/keys';
import { LimitsPage, limitsMessages } from './pages/limits';
import { MePage, meMessages } from './pages/me';
import { OrderPage, OrdersPage, ordersMessages, TransferPage, TransfersPage } from './pages/orders';
import { PayeesPage, payeesMessages } from './pages/payees';
import { SecurityPage, securityMessages } from './pages/security';
import { SettingsPage, settingsMessages } from './pages/settings';
import { TeamPage, teamMessages } from './pages/team';

// Every page of the merchant dashboard (CONTRACT section 18, docs/console.md): its path below /dashboard/,
// its place in the navigation, and what it shows. Each area keeps its page and messages in pages/<area>.tsx.

export interface PageContext {
  api: DashboardApi;
  router: Router;
  /** The path's named parts (`orders/:orderNo` gives `orderNo`). */
  params: Record<string, string>;
}

export interface AppPage {
  pattern: string;
  /** The navigation's label key, for pages in the navigation. */
  nav?: string;
  render(ctx: PageContext): JSX.Element;
}

export const PAGES: readonly AppPage[] = [
  { pattern: '', nav: 'nav.home', render: (c) => <HomePage {...c} /> },
  { pattern: 'orders', nav: 'nav.orders', render: (c) => <OrdersPage {...c} /> },
  { pattern: 'orders/:orderNo', render: (c) => <OrderPage {...c} /> },
  { pattern: 'transfers', nav: 'nav.transfers', render: (c) => <TransfersPage {...c} /> },
  { pattern: 'transfers/:transferNo', render: (c) => <TransferPage {...c} /> },
  { pattern: 'batches', nav: 'nav.batches', render: (c) => <BatchesPage {...c} /> },
  { pattern: 'balance', nav: 'nav.balance', render: (c) => <BalancePage {...c} /> },
  { pattern: 'limits', nav: 'nav.limits', render: (c) => <LimitsPage {...c} /> },
  { pattern: 'payees', nav: 'nav.payees', render: (c) => <PayeesPage {...c} /> },
  { pattern: 'keys', nav: 'nav.keys', render: (c) => <KeysPage {...c} /> },
  { pattern: 'callbacks', nav: 'nav.callbacks', render: (c) => <CallbacksPage {...c} /> },
  { pattern: 'team', nav: 'nav.team', render: (c) => <TeamPage {...c} /> },
  { pattern: 'security', nav: 'nav.security', render: (c) => <SecurityPage {...c} /> },
  { pattern: 'settings', nav: 'nav.settings', render: (c) => <SettingsPage {...c} /> },
  { pattern: 'me', render: (c) => <MePage {...c} /> },
];

const dashboardMessages = defineDictionaries(
  {
    'app.name': 'Panel agentpay',
    'nav.home': 'Inicio',
    'notFound.title': 'Página no encontrada',
    'home.notYet': 'Aún no disponible.',
  },
  {
    'app.name': 'agentpay dashboard',
    'nav.home': 'Home',
    'notFound.title': 'Page not found',
    'home.notYet': 'Not available yet.',
  },
);

export const dictionaries = mergeDictionaries(
  sharedMessages,
  dashboardMessages,
  ordersMessages,
  balanceMessages,
  keysMessages,
  callbacksMessages,
  teamMessages,
  securityMessages,
  limitsMessages,
  payeesMessages,
  batchesMessages,
  settingsMessages,
  meMessages,
);
