import { type MyAccount, MyAccountPage, myAccountMessages } from '@agentpay/ui';
import type { PageContext } from '../app-pages';
import { MERCHANT_ROLES } from './team.api';

// My account on the dashboard (CONTRACT section 17 "Sessions", "Tokens"): the shared page
// (packages/ui/src/pages/my-account.tsx) under /dashboard/api/me, with the merchant roles. The current session
// ends with "Sign out" in the header, so it has no End button here.

export const meMessages = myAccountMessages(
  {
    tokensHelp:
      'Un token actúa como tú desde un script, con los roles que elijas de los tuyos, hasta que vence o lo revocas.',
    revokeWhich: 'el token {name}',
  },
  {
    tokensHelp:
      'A token acts as you from a script, with the roles you choose from yours, until it expires or you revoke it.',
    revokeWhich: 'token {name}',
  },
);

const options = {
  prefix: '/dashboard/api/me',
  roleKey: 'team.role.',
  rolesChecked: false,
  endCurrent: false,
} as const;
const tokenRoles = (me: MyAccount) => MERCHANT_ROLES.filter((r) => me.roles.includes(r));

export function MePage(props: PageContext) {
  return <MyAccountPage client={props.api.client} tokenRoles={tokenRoles} {...options} />;
}
