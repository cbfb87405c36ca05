import { type MyAccount, MyAccountPage, myAccountMessages } from '@agentpay/ui';
import type { PageContext } from '../app-pages';

// My account on the console (CONTRACT section 17 "Sessions", "Tokens"; section 18 "my sessions and tokens"):
// the shared page (packages/ui/src/pages/my-account.tsx) under /admin/me. system:dev (ADMIN_TOKEN, no userId)
// holds no tokens, so it is offered none to make.

export const meMessages = myAccountMessages(
  {
    tokensHelp:
      'Un token actúa como tú, con los roles que elijas de los tuyos, desde un script o la línea de comandos.',
    revokeWhich: '{name}',
  },
  {
    tokensHelp:
      'A token acts as you, with the roles you choose from yours, from a script or the command line.',
    revokeWhich: '{name}',
  },
);

const options = { prefix: '/admin/me', roleKey: 'role.', rolesChecked: true, endCurrent: true } as const;
const tokenRoles = (me: MyAccount) => (me.userId ? me.roles : undefined);

export function MePage(props: PageContext) {
  return <MyAccountPage client={props.api.client} tokenRoles={tokenRoles} {...options} />;
}
