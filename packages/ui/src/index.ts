// What the console and the dashboard share (docs/console.md "How it is built").
export * from './api';
export * from './components';
export * from './format';
export * from './i18n';
export * from './limits';
export * from './may';
export * from './order-pages';
export * from './orders';
export { InvitationPage } from './pages/invitation';
export { type MyAccount, MyAccountPage, myAccountApi, myAccountMessages } from './pages/my-account';
export { SignInPage } from './pages/sign-in';
export { QrCode } from './qr-code';
export * from './router';
export { sharedMessages } from './shared-messages';
export * from './statement';
export * from './use-resource';
export { useSession } from './use-session';
