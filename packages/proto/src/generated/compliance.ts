import type * as grpc from '@grpc/grpc-js';
import type { MessageTypeDefinition } from '@grpc/proto-loader';

import type { CaseClose as _agentpay_compliance_v1_CaseClose, CaseClose__Output as _agentpay_compliance_v1_CaseClose__Output } from './agentpay/compliance/v1/CaseClose.js';
import type { CaseDecision as _agentpay_compliance_v1_CaseDecision, CaseDecision__Output as _agentpay_compliance_v1_CaseDecision__Output } from './agentpay/compliance/v1/CaseDecision.js';
import type { CaseNote as _agentpay_compliance_v1_CaseNote, CaseNote__Output as _agentpay_compliance_v1_CaseNote__Output } from './agentpay/compliance/v1/CaseNote.js';
import type { CaseRef as _agentpay_compliance_v1_CaseRef, CaseRef__Output as _agentpay_compliance_v1_CaseRef__Output } from './agentpay/compliance/v1/CaseRef.js';
import type { ComplianceServiceClient as _agentpay_compliance_v1_ComplianceServiceClient, ComplianceServiceDefinition as _agentpay_compliance_v1_ComplianceServiceDefinition } from './agentpay/compliance/v1/ComplianceService.js';
import type { CreateListRequest as _agentpay_compliance_v1_CreateListRequest, CreateListRequest__Output as _agentpay_compliance_v1_CreateListRequest__Output } from './agentpay/compliance/v1/CreateListRequest.js';
import type { Empty as _agentpay_compliance_v1_Empty, Empty__Output as _agentpay_compliance_v1_Empty__Output } from './agentpay/compliance/v1/Empty.js';
import type { JsonReply as _agentpay_compliance_v1_JsonReply, JsonReply__Output as _agentpay_compliance_v1_JsonReply__Output } from './agentpay/compliance/v1/JsonReply.js';
import type { ListCasesRequest as _agentpay_compliance_v1_ListCasesRequest, ListCasesRequest__Output as _agentpay_compliance_v1_ListCasesRequest__Output } from './agentpay/compliance/v1/ListCasesRequest.js';
import type { ReportRequest as _agentpay_compliance_v1_ReportRequest, ReportRequest__Output as _agentpay_compliance_v1_ReportRequest__Output } from './agentpay/compliance/v1/ReportRequest.js';
import type { RulesJson as _agentpay_compliance_v1_RulesJson, RulesJson__Output as _agentpay_compliance_v1_RulesJson__Output } from './agentpay/compliance/v1/RulesJson.js';
import type { ScreenRequest as _agentpay_compliance_v1_ScreenRequest, ScreenRequest__Output as _agentpay_compliance_v1_ScreenRequest__Output } from './agentpay/compliance/v1/ScreenRequest.js';
import type { ScreenResponse as _agentpay_compliance_v1_ScreenResponse, ScreenResponse__Output as _agentpay_compliance_v1_ScreenResponse__Output } from './agentpay/compliance/v1/ScreenResponse.js';
import type { UploadVersionRequest as _agentpay_compliance_v1_UploadVersionRequest, UploadVersionRequest__Output as _agentpay_compliance_v1_UploadVersionRequest__Output } from './agentpay/compliance/v1/UploadVersionRequest.js';
import type { VersionRef as _agentpay_compliance_v1_VersionRef, VersionRef__Output as _agentpay_compliance_v1_VersionRef__Output } from './agentpay/compliance/v1/VersionRef.js';

type SubtypeConstructor<Constructor extends new (...args: any) => any, Subtype> = {
  new(...args: ConstructorParameters<Constructor>): Subtype;
};

export interface ProtoGrpcType {
  agentpay: {
    compliance: {
      v1: {
        CaseClose: MessageTypeDefinition<_agentpay_compliance_v1_CaseClose, _agentpay_compliance_v1_CaseClose__Output>
        CaseDecision: MessageTypeDefinition<_agentpay_compliance_v1_CaseDecision, _agentpay_compliance_v1_CaseDecision__Output>
        CaseNote: MessageTypeDefinition<_agentpay_compliance_v1_CaseNote, _agentpay_compliance_v1_CaseNote__Output>
        CaseRef: MessageTypeDefinition<_agentpay_compliance_v1_CaseRef, _agentpay_compliance_v1_CaseRef__Output>
        ComplianceService: SubtypeConstructor<typeof grpc.Client, _agentpay_compliance_v1_ComplianceServiceClient> & { service: _agentpay_compliance_v1_ComplianceServiceDefinition }
        CreateListRequest: MessageTypeDefinition<_agentpay_compliance_v1_CreateListRequest, _agentpay_compliance_v1_CreateListRequest__Output>
        Empty: MessageTypeDefinition<_agentpay_compliance_v1_Empty, _agentpay_compliance_v1_Empty__Output>
        JsonReply: MessageTypeDefinition<_agentpay_compliance_v1_JsonReply, _agentpay_compliance_v1_JsonReply__Output>
        ListCasesRequest: MessageTypeDefinition<_agentpay_compliance_v1_ListCasesRequest, _agentpay_compliance_v1_ListCasesRequest__Output>
        ReportRequest: MessageTypeDefinition<_agentpay_compliance_v1_ReportRequest, _agentpay_compliance_v1_ReportRequest__Output>
        RulesJson: MessageTypeDefinition<_agentpay_compliance_v1_RulesJson, _agentpay_compliance_v1_RulesJson__Output>
        ScreenRequest: MessageTypeDefinition<_agentpay_compliance_v1_ScreenRequest, _agentpay_compliance_v1_ScreenRequest__Output>
        ScreenResponse: MessageTypeDefinition<_agentpay_compliance_v1_ScreenResponse, _agentpay_compliance_v1_ScreenResponse__Output>
        UploadVersionRequest: MessageTypeDefinition<_agentpay_compliance_v1_UploadVersionRequest, _agentpay_compliance_v1_UploadVersionRequest__Output>
        VersionRef: MessageTypeDefinition<_agentpay_compliance_v1_VersionRef, _agentpay_compliance_v1_VersionRef__Output>
      }
    }
  }
}

