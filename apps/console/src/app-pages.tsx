import { mergeDictionaries, type Router, sharedMessages } from '@agentpay/ui';
import type { JSX } from 'preact';
import type { ConsoleApi } from './console-api';
import { consoleMessages } from './messages';
import { ApprovalsPage, approvalsMessages } from './pages/approvals';
import { AuditPage, auditMessages } from './pages/audit';
import { CallbacksPage, callbacksMessages } from './pages/callbacks';
import {
  CasePage,
  CasesPage,
  complianceApprovalMessages,
  complianceMessages,
  ListsPage,
  ReportsPage,
  RulesPage,
} from './pages/compliance';
import { HomePage, homeMessages } from './pages/home';
import { LedgerMerchantPage, LedgerPage, ledgerMessages } from './pages/ledger';
import { limitsMessages } from './pages/limits';
import { MePage, meMessages } from './pages/me';
import { MerchantPage } from './pages/merchant';
import { NewMerchantPage } from './pages/merchant-form';
import { MerchantsPage } from './pages/merchants';
import { OrderPage, OrdersPage, ordersMessages, TransferPage, TransfersPage } from './pages/orders';
import { PeoplePage, peopleMessages } from './pages/people';
import { DiscrepancyPage, ReconciliationPage, reconciliationMessages } from './pages/reconciliation';
import { RoutesPage } from './pages/routes';

// Every page of the console (CONTRACT section 18, docs/console.md): its path below /console/, its place in
// the navigation, and what it shows. Each area keeps its page and its messages in pages/<area>.tsx.

export interface PageContext {
  api: ConsoleApi;
  router: Router;
  /** The path's named parts (`orders/:orderNo` gives `orderNo`). */
  params: Record<string, string>;
}

export interface AppPage {
  pattern: string;
  /** The navigation's label key, for pages in the navigation. */
  nav?: string;
  /**
   * The permission (`METHOD /route`) a person needs to see the page in the navigation: a role without it
   * (support, for the compliance desk) is not shown it at all. Pages without it are shown to everyone.
   */
  navNeeds?: string;
  render(ctx: PageContext): JSX.Element;
}

export const PAGES: readonly AppPage[] = [
  { pattern: '', nav: 'nav.home', render: (c) => <HomePage api={c.api} Link={c.router.Link} /> },
  { pattern: 'orders', nav: 'nav.orders', render: (c) => <OrdersPage {...c} /> },
  { pattern: 'orders/:orderNo', render: (c) => <OrderPage {...c} /> },
  { pattern: 'transfers', nav: 'nav.transfers', render: (c) => <TransfersPage {...c} /> },
  { pattern: 'transfers/:transferNo', render: (c) => <TransferPage {...c} /> },
  { pattern: 'callbacks', nav: 'nav.callbacks', render: (c) => <CallbacksPage {...c} /> },
  {
    pattern: 'merchants',
    nav: 'nav.merchants',
    render: (c) => <MerchantsPage api={c.api} router={c.router} />,
  },
  { pattern: 'merchants/new', render: (c) => <NewMerchantPage api={c.api} router={c.router} /> },
  {
    pattern: 'merchants/:mchNo',
    render: (c) => <MerchantPage api={c.api} mchNo={c.params['mchNo'] ?? ''} Link={c.router.Link} />,
  },
  { pattern: 'routes', nav: 'nav.routes', render: (c) => <RoutesPage api={c.api} /> },
  { pattern: 'ledger', nav: 'nav.ledger', render: (c) => <LedgerPage {...c} /> },
  { pattern: 'ledger/:mchNo', render: (c) => <LedgerMerchantPage {...c} /> },
  {
    pattern: 'reconciliation',
    nav: 'nav.reconciliation',
    render: (c) => <ReconciliationPage api={c.api} router={c.router} />,
  },
  { pattern: 'reconciliation/:id', render: (c) => <DiscrepancyPage {...c} /> },
  { pattern: 'approvals', nav: 'nav.approvals', render: (c) => <ApprovalsPage {...c} /> },
  {
    pattern: 'compliance',
    nav: 'nav.compliance',
    navNeeds: 'GET /admin/compliance/cases',
    render: (c) => <CasesPage {...c} />,
  },
  { pattern: 'compliance/cases/:id', render: (c) => <CasePage {...c} /> },
  { pattern: 'compliance/lists', render: (c) => <ListsPage {...c} /> },
  { pattern: 'compliance/rules', render: (c) => <RulesPage {...c} /> },
  { pattern: 'compliance/reports', render: (c) => <ReportsPage {...c} /> },
  { pattern: 'audit', nav: 'nav.audit', render: (c) => <AuditPage {...c} /> },
  { pattern: 'people', nav: 'nav.people', render: (c) => <PeoplePage {...c} /> },
  { pattern: 'me', render: (c) => <MePage {...c} /> },
];

export const dictionaries = mergeDictionaries(
  sharedMessages,
  consoleMessages,
  homeMessages,
  ordersMessages,
  callbacksMessages,
  ledgerMessages,
  limitsMessages,
  reconciliationMessages,
  approvalsMessages,
  auditMessages,
  peopleMessages,
  meMessages,
  complianceMessages,
  complianceApprovalMessages,
);
