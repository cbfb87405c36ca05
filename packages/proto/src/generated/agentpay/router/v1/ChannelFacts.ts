// Original file: proto/router/v1/router.proto

import type { ChannelFact as _agentpay_router_v1_ChannelFact, ChannelFact__Output as _agentpay_router_v1_ChannelFact__Output } from '../../../agentpay/router/v1/ChannelFact.js';

export interface ChannelFacts {
  'facts'?: (_agentpay_router_v1_ChannelFact)[];
}

export interface ChannelFacts__Output {
  'facts': (_agentpay_router_v1_ChannelFact__Output)[];
}
