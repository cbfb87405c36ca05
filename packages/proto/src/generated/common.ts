import type * as grpc from '@grpc/grpc-js';
import type { MessageTypeDefinition } from '@grpc/proto-loader';

import type { Limit as _agentpay_common_v1_Limit, Limit__Output as _agentpay_common_v1_Limit__Output } from './agentpay/common/v1/Limit.js';
import type { MerchantContext as _agentpay_common_v1_MerchantContext, MerchantContext__Output as _agentpay_common_v1_MerchantContext__Output } from './agentpay/common/v1/MerchantContext.js';
import type { Option as _agentpay_common_v1_Option, Option__Output as _agentpay_common_v1_Option__Output } from './agentpay/common/v1/Option.js';
import type { OptionList as _agentpay_common_v1_OptionList, OptionList__Output as _agentpay_common_v1_OptionList__Output } from './agentpay/common/v1/OptionList.js';
import type { PayoutLimits as _agentpay_common_v1_PayoutLimits, PayoutLimits__Output as _agentpay_common_v1_PayoutLimits__Output } from './agentpay/common/v1/PayoutLimits.js';

type SubtypeConstructor<Constructor extends new (...args: any) => any, Subtype> = {
  new(...args: ConstructorParameters<Constructor>): Subtype;
};

export interface ProtoGrpcType {
  agentpay: {
    common: {
      v1: {
        Limit: MessageTypeDefinition<_agentpay_common_v1_Limit, _agentpay_common_v1_Limit__Output>
        MerchantContext: MessageTypeDefinition<_agentpay_common_v1_MerchantContext, _agentpay_common_v1_MerchantContext__Output>
        Option: MessageTypeDefinition<_agentpay_common_v1_Option, _agentpay_common_v1_Option__Output>
        OptionList: MessageTypeDefinition<_agentpay_common_v1_OptionList, _agentpay_common_v1_OptionList__Output>
        PayoutLimits: MessageTypeDefinition<_agentpay_common_v1_PayoutLimits, _agentpay_common_v1_PayoutLimits__Output>
      }
    }
  }
}

