// Original file: proto/common/v1/common.proto

import type { Option as _agentpay_common_v1_Option, Option__Output as _agentpay_common_v1_Option__Output } from '../../../agentpay/common/v1/Option.js';

export interface OptionList {
  'items'?: (_agentpay_common_v1_Option)[];
}

export interface OptionList__Output {
  'items': (_agentpay_common_v1_Option__Output)[];
}
