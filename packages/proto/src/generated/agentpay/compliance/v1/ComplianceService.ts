// Original file: proto/compliance/v1/compliance.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { CaseClose as _agentpay_compliance_v1_CaseClose, CaseClose__Output as _agentpay_compliance_v1_CaseClose__Output } from '../../../agentpay/compliance/v1/CaseClose.js';
import type { CaseDecision as _agentpay_compliance_v1_CaseDecision, CaseDecision__Output as _agentpay_compliance_v1_CaseDecision__Output } from '../../../agentpay/compliance/v1/CaseDecision.js';
import type { CaseNote as _agentpay_compliance_v1_CaseNote, CaseNote__Output as _agentpay_compliance_v1_CaseNote__Output } from '../../../agentpay/compliance/v1/CaseNote.js';
import type { CaseRef as _agentpay_compliance_v1_CaseRef, CaseRef__Output as _agentpay_compliance_v1_CaseRef__Output } from '../../../agentpay/compliance/v1/CaseRef.js';
import type { CreateListRequest as _agentpay_compliance_v1_CreateListRequest, CreateListRequest__Output as _agentpay_compliance_v1_CreateListRequest__Output } from '../../../agentpay/compliance/v1/CreateListRequest.js';
import type { Empty as _agentpay_compliance_v1_Empty, Empty__Output as _agentpay_compliance_v1_Empty__Output } from '../../../agentpay/compliance/v1/Empty.js';
import type { JsonReply as _agentpay_compliance_v1_JsonReply, JsonReply__Output as _agentpay_compliance_v1_JsonReply__Output } from '../../../agentpay/compliance/v1/JsonReply.js';
import type { ListCasesRequest as _agentpay_compliance_v1_ListCasesRequest, ListCasesRequest__Output as _agentpay_compliance_v1_ListCasesRequest__Output } from '../../../agentpay/compliance/v1/ListCasesRequest.js';
import type { ReportRequest as _agentpay_compliance_v1_ReportRequest, ReportRequest__Output as _agentpay_compliance_v1_ReportRequest__Output } from '../../../agentpay/compliance/v1/ReportRequest.js';
import type { RulesJson as _agentpay_compliance_v1_RulesJson, RulesJson__Output as _agentpay_compliance_v1_RulesJson__Output } from '../../../agentpay/compliance/v1/RulesJson.js';
import type { ScreenRequest as _agentpay_compliance_v1_ScreenRequest, ScreenRequest__Output as _agentpay_compliance_v1_ScreenRequest__Output } from '../../../agentpay/compliance/v1/ScreenRequest.js';
import type { ScreenResponse as _agentpay_compliance_v1_ScreenResponse, ScreenResponse__Output as _agentpay_compliance_v1_ScreenResponse__Output } from '../../../agentpay/compliance/v1/ScreenResponse.js';
import type { UploadVersionRequest as _agentpay_compliance_v1_UploadVersionRequest, UploadVersionRequest__Output as _agentpay_compliance_v1_UploadVersionRequest__Output } from '../../../agentpay/compliance/v1/UploadVersionRequest.js';
import type { VersionRef as _agentpay_compliance_v1_VersionRef, VersionRef__Output as _agentpay_compliance_v1_VersionRef__Output } from '../../../agentpay/compliance/v1/VersionRef.js';

export interface ComplianceServiceClient extends grpc.Client {
  ActivateVersion(argument: _agentpay_compliance_v1_VersionRef, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_compliance_v1_JsonReply__Output>): grpc.ClientUnaryCall;
  ActivateVersion(argument: _agentpay_compliance_v1_VersionRef, metadata: grpc.Metadata, callback: grpc.requestCallback<_agentpay_compliance_v1_JsonReply__Output>): grpc.ClientUnaryCall;
  ActivateVersion(argument: _agentpay_compliance_v1_VersionRef, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_compliance_v1_JsonReply__Output>): grpc.ClientUnaryCall;
  ActivateVersion(argument: _agentpay_compliance_v1_VersionRef, callback: grpc.requestCallback<_agentpay_compliance_v1_JsonReply__Output>): grpc.ClientUnaryCall;
  activateVersion(argument: _agentpay_compliance_v1_VersionRef, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_compliance_v1_JsonReply__Output>): grpc.ClientUnaryCall;
  activateVersion(argument: _agentpay_compliance_v1_VersionRef, metadata: grpc.Metadata, callback: grpc.requestCallback<_agentpay_compliance_v1_JsonReply__Output>): grpc.ClientUnaryCall;
  activateVersion(argument: _agentpay_compliance_v1_VersionRef, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_compliance_v1_JsonReply__Output>): grpc.ClientUnaryCall;
  activateVersion(argument: _agentpay_compliance_v1_VersionRef, callback: grpc.requestCallback<_agentpay_compliance_v1_JsonReply__Output>): grpc.ClientUnaryCall;
  
  AddNote(argument: _agentpay_compliance_v1_CaseNote, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_compliance_v1_JsonReply__Output>): grpc.ClientUnaryCall;
  AddNote(argument: _agentpay_compliance_v1_CaseNote, metadata: grpc.Metadata, callback: grpc.requestCallback<_agentpay_compliance_v1_JsonReply__Output>): grpc.ClientUnaryCall;
  AddNote(argument: _agentpay_compliance_v1_CaseNote, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_compliance_v1_JsonReply__Output>): grpc.ClientUnaryCall;
  AddNote(argument: _agentpay_compliance_v1_CaseNote, callback: grpc.requestCallback<_agentpay_compliance_v1_JsonReply__Output>): grpc.ClientUnaryCall;
  addNote(argument: _agentpay_compliance_v1_CaseNote, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_compliance_v1_JsonReply__Output>): grpc.ClientUnaryCall;
  addNote(argument: _agentpay_compliance_v1_CaseNote, metadata: grpc.Metadata, callback: grpc.requestCallback<_agentpay_compliance_v1_JsonReply__Output>): grpc.ClientUnaryCall;
  addNote(argument: _agentpay_compliance_v1_CaseNote, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_compliance_v1_JsonReply__Output>): grpc.ClientUnaryCall;
  addNote(argument: _agentpay_compliance_v1_CaseNote, callback: grpc.requestCallback<_agentpay_compliance_v1_JsonReply__Output>): grpc.ClientUnaryCall;
  
  CloseCase(argument: _agentpay_compliance_v1_CaseClose, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_compliance_v1_JsonReply__Output>): grpc.ClientUnaryCall;
  CloseCase(argument: _agentpay_compliance_v1_CaseClose, metadata: grpc.Metadata, callback: grpc.requestCallback<_agentpay_compliance_v1_JsonReply__Output>): grpc.ClientUnaryCall;
  CloseCase(argument: _agentpay_compliance_v1_CaseClose, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_compliance_v1_JsonReply__Output>): grpc.ClientUnaryCall;
  CloseCase(argument: _agentpay_compliance_v1_CaseClose, callback: grpc.requestCallback<_agentpay_compliance_v1_JsonReply__Output>): grpc.ClientUnaryCall;
  closeCase(argument: _agentpay_compliance_v1_CaseClose, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_compliance_v1_JsonReply__Output>): grpc.ClientUnaryCall;
  closeCase(argument: _agentpay_compliance_v1_CaseClose, metadata: grpc.Metadata, callback: grpc.requestCallback<_agentpay_compliance_v1_JsonReply__Output>): grpc.ClientUnaryCall;
  closeCase(argument: _agentpay_compliance_v1_CaseClose, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_compliance_v1_JsonReply__Output>): grpc.ClientUnaryCall;
  closeCase(argument: _agentpay_compliance_v1_CaseClose, callback: grpc.requestCallback<_agentpay_compliance_v1_JsonReply__Output>): grpc.ClientUnaryCall;
  
  /**
   * The admin API (docs/compliance.md). Requests are typed; replies carry the admin view as JSON
   * (`json`), exactly the body the gateway answers. Refusals: INVALID_ARGUMENT, NOT_FOUND,
   * FAILED_PRECONDITION (a state that forbids it), with the reason in details.
   */
  CreateList(argument: _agentpay_compliance_v1_CreateListRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_compliance_v1_JsonReply__Output>): grpc.ClientUnaryCall;
  CreateList(argument: _agentpay_compliance_v1_CreateListRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_agentpay_compliance_v1_JsonReply__Output>): grpc.ClientUnaryCall;
  CreateList(argument: _agentpay_compliance_v1_CreateListRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_compliance_v1_JsonReply__Output>): grpc.ClientUnaryCall;
  CreateList(argument: _agentpay_compliance_v1_CreateListRequest, callback: grpc.requestCallback<_agentpay_compliance_v1_JsonReply__Output>): grpc.ClientUnaryCall;
  /**
   * The admin API (docs/compliance.md). Requests are typed; replies carry the admin view as JSON
   * (`json`), exactly the body the gateway answers. Refusals: INVALID_ARGUMENT, NOT_FOUND,
   * FAILED_PRECONDITION (a state that forbids it), with the reason in details.
   */
  createList(argument: _agentpay_compliance_v1_CreateListRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_compliance_v1_JsonReply__Output>): grpc.ClientUnaryCall;
  createList(argument: _agentpay_compliance_v1_CreateListRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_agentpay_compliance_v1_JsonReply__Output>): grpc.ClientUnaryCall;
  createList(argument: _agentpay_compliance_v1_CreateListRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_compliance_v1_JsonReply__Output>): grpc.ClientUnaryCall;
  createList(argument: _agentpay_compliance_v1_CreateListRequest, callback: grpc.requestCallback<_agentpay_compliance_v1_JsonReply__Output>): grpc.ClientUnaryCall;
  
  /**
   * Records a release or a rejection of a held payout's case; a repeat of the same decision answers the
   * case as it is (the gateway then carries it to transfers). Errors: NOT_FOUND, FAILED_PRECONDITION.
   */
  DecideCase(argument: _agentpay_compliance_v1_CaseDecision, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_compliance_v1_JsonReply__Output>): grpc.ClientUnaryCall;
  DecideCase(argument: _agentpay_compliance_v1_CaseDecision, metadata: grpc.Metadata, callback: grpc.requestCallback<_agentpay_compliance_v1_JsonReply__Output>): grpc.ClientUnaryCall;
  DecideCase(argument: _agentpay_compliance_v1_CaseDecision, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_compliance_v1_JsonReply__Output>): grpc.ClientUnaryCall;
  DecideCase(argument: _agentpay_compliance_v1_CaseDecision, callback: grpc.requestCallback<_agentpay_compliance_v1_JsonReply__Output>): grpc.ClientUnaryCall;
  /**
   * Records a release or a rejection of a held payout's case; a repeat of the same decision answers the
   * case as it is (the gateway then carries it to transfers). Errors: NOT_FOUND, FAILED_PRECONDITION.
   */
  decideCase(argument: _agentpay_compliance_v1_CaseDecision, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_compliance_v1_JsonReply__Output>): grpc.ClientUnaryCall;
  decideCase(argument: _agentpay_compliance_v1_CaseDecision, metadata: grpc.Metadata, callback: grpc.requestCallback<_agentpay_compliance_v1_JsonReply__Output>): grpc.ClientUnaryCall;
  decideCase(argument: _agentpay_compliance_v1_CaseDecision, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_compliance_v1_JsonReply__Output>): grpc.ClientUnaryCall;
  decideCase(argument: _agentpay_compliance_v1_CaseDecision, callback: grpc.requestCallback<_agentpay_compliance_v1_JsonReply__Output>): grpc.ClientUnaryCall;
  
  GetCase(argument: _agentpay_compliance_v1_CaseRef, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_compliance_v1_JsonReply__Output>): grpc.ClientUnaryCall;
  GetCase(argument: _agentpay_compliance_v1_CaseRef, metadata: grpc.Metadata, callback: grpc.requestCallback<_agentpay_compliance_v1_JsonReply__Output>): grpc.ClientUnaryCall;
  GetCase(argument: _agentpay_compliance_v1_CaseRef, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_compliance_v1_JsonReply__Output>): grpc.ClientUnaryCall;
  GetCase(argument: _agentpay_compliance_v1_CaseRef, callback: grpc.requestCallback<_agentpay_compliance_v1_JsonReply__Output>): grpc.ClientUnaryCall;
  getCase(argument: _agentpay_compliance_v1_CaseRef, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_compliance_v1_JsonReply__Output>): grpc.ClientUnaryCall;
  getCase(argument: _agentpay_compliance_v1_CaseRef, metadata: grpc.Metadata, callback: grpc.requestCallback<_agentpay_compliance_v1_JsonReply__Output>): grpc.ClientUnaryCall;
  getCase(argument: _agentpay_compliance_v1_CaseRef, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_compliance_v1_JsonReply__Output>): grpc.ClientUnaryCall;
  getCase(argument: _agentpay_compliance_v1_CaseRef, callback: grpc.requestCallback<_agentpay_compliance_v1_JsonReply__Output>): grpc.ClientUnaryCall;
  
  GetRules(argument: _agentpay_compliance_v1_Empty, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_compliance_v1_JsonReply__Output>): grpc.ClientUnaryCall;
  GetRules(argument: _agentpay_compliance_v1_Empty, metadata: grpc.Metadata, callback: grpc.requestCallback<_agentpay_compliance_v1_JsonReply__Output>): grpc.ClientUnaryCall;
  GetRules(argument: _agentpay_compliance_v1_Empty, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_compliance_v1_JsonReply__Output>): grpc.ClientUnaryCall;
  GetRules(argument: _agentpay_compliance_v1_Empty, callback: grpc.requestCallback<_agentpay_compliance_v1_JsonReply__Output>): grpc.ClientUnaryCall;
  getRules(argument: _agentpay_compliance_v1_Empty, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_compliance_v1_JsonReply__Output>): grpc.ClientUnaryCall;
  getRules(argument: _agentpay_compliance_v1_Empty, metadata: grpc.Metadata, callback: grpc.requestCallback<_agentpay_compliance_v1_JsonReply__Output>): grpc.ClientUnaryCall;
  getRules(argument: _agentpay_compliance_v1_Empty, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_compliance_v1_JsonReply__Output>): grpc.ClientUnaryCall;
  getRules(argument: _agentpay_compliance_v1_Empty, callback: grpc.requestCallback<_agentpay_compliance_v1_JsonReply__Output>): grpc.ClientUnaryCall;
  
  ListCases(argument: _agentpay_compliance_v1_ListCasesRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_compliance_v1_JsonReply__Output>): grpc.ClientUnaryCall;
  ListCases(argument: _agentpay_compliance_v1_ListCasesRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_agentpay_compliance_v1_JsonReply__Output>): grpc.ClientUnaryCall;
  ListCases(argument: _agentpay_compliance_v1_ListCasesRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_compliance_v1_JsonReply__Output>): grpc.ClientUnaryCall;
  ListCases(argument: _agentpay_compliance_v1_ListCasesRequest, callback: grpc.requestCallback<_agentpay_compliance_v1_JsonReply__Output>): grpc.ClientUnaryCall;
  listCases(argument: _agentpay_compliance_v1_ListCasesRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_compliance_v1_JsonReply__Output>): grpc.ClientUnaryCall;
  listCases(argument: _agentpay_compliance_v1_ListCasesRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_agentpay_compliance_v1_JsonReply__Output>): grpc.ClientUnaryCall;
  listCases(argument: _agentpay_compliance_v1_ListCasesRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_compliance_v1_JsonReply__Output>): grpc.ClientUnaryCall;
  listCases(argument: _agentpay_compliance_v1_ListCasesRequest, callback: grpc.requestCallback<_agentpay_compliance_v1_JsonReply__Output>): grpc.ClientUnaryCall;
  
  ListLists(argument: _agentpay_compliance_v1_Empty, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_compliance_v1_JsonReply__Output>): grpc.ClientUnaryCall;
  ListLists(argument: _agentpay_compliance_v1_Empty, metadata: grpc.Metadata, callback: grpc.requestCallback<_agentpay_compliance_v1_JsonReply__Output>): grpc.ClientUnaryCall;
  ListLists(argument: _agentpay_compliance_v1_Empty, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_compliance_v1_JsonReply__Output>): grpc.ClientUnaryCall;
  ListLists(argument: _agentpay_compliance_v1_Empty, callback: grpc.requestCallback<_agentpay_compliance_v1_JsonReply__Output>): grpc.ClientUnaryCall;
  listLists(argument: _agentpay_compliance_v1_Empty, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_compliance_v1_JsonReply__Output>): grpc.ClientUnaryCall;
  listLists(argument: _agentpay_compliance_v1_Empty, metadata: grpc.Metadata, callback: grpc.requestCallback<_agentpay_compliance_v1_JsonReply__Output>): grpc.ClientUnaryCall;
  listLists(argument: _agentpay_compliance_v1_Empty, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_compliance_v1_JsonReply__Output>): grpc.ClientUnaryCall;
  listLists(argument: _agentpay_compliance_v1_Empty, callback: grpc.requestCallback<_agentpay_compliance_v1_JsonReply__Output>): grpc.ClientUnaryCall;
  
  /**
   * The rows of a report (docs/compliance.md "Reports"), oldest first; the gateway writes the CSV.
   */
  Report(argument: _agentpay_compliance_v1_ReportRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_compliance_v1_JsonReply__Output>): grpc.ClientUnaryCall;
  Report(argument: _agentpay_compliance_v1_ReportRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_agentpay_compliance_v1_JsonReply__Output>): grpc.ClientUnaryCall;
  Report(argument: _agentpay_compliance_v1_ReportRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_compliance_v1_JsonReply__Output>): grpc.ClientUnaryCall;
  Report(argument: _agentpay_compliance_v1_ReportRequest, callback: grpc.requestCallback<_agentpay_compliance_v1_JsonReply__Output>): grpc.ClientUnaryCall;
  /**
   * The rows of a report (docs/compliance.md "Reports"), oldest first; the gateway writes the CSV.
   */
  report(argument: _agentpay_compliance_v1_ReportRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_compliance_v1_JsonReply__Output>): grpc.ClientUnaryCall;
  report(argument: _agentpay_compliance_v1_ReportRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_agentpay_compliance_v1_JsonReply__Output>): grpc.ClientUnaryCall;
  report(argument: _agentpay_compliance_v1_ReportRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_compliance_v1_JsonReply__Output>): grpc.ClientUnaryCall;
  report(argument: _agentpay_compliance_v1_ReportRequest, callback: grpc.requestCallback<_agentpay_compliance_v1_JsonReply__Output>): grpc.ClientUnaryCall;
  
  /**
   * Screens one counterparty against every list in effect. A `hit` on a blocked list or a `review` on any
   * list opens a case for the operation (idempotent by operation kind + ref). Errors: INVALID_PARAMETER;
   * UNAVAILABLE when the store cannot answer (callers fail closed).
   */
  Screen(argument: _agentpay_compliance_v1_ScreenRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_compliance_v1_ScreenResponse__Output>): grpc.ClientUnaryCall;
  Screen(argument: _agentpay_compliance_v1_ScreenRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_agentpay_compliance_v1_ScreenResponse__Output>): grpc.ClientUnaryCall;
  Screen(argument: _agentpay_compliance_v1_ScreenRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_compliance_v1_ScreenResponse__Output>): grpc.ClientUnaryCall;
  Screen(argument: _agentpay_compliance_v1_ScreenRequest, callback: grpc.requestCallback<_agentpay_compliance_v1_ScreenResponse__Output>): grpc.ClientUnaryCall;
  /**
   * Screens one counterparty against every list in effect. A `hit` on a blocked list or a `review` on any
   * list opens a case for the operation (idempotent by operation kind + ref). Errors: INVALID_PARAMETER;
   * UNAVAILABLE when the store cannot answer (callers fail closed).
   */
  screen(argument: _agentpay_compliance_v1_ScreenRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_compliance_v1_ScreenResponse__Output>): grpc.ClientUnaryCall;
  screen(argument: _agentpay_compliance_v1_ScreenRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_agentpay_compliance_v1_ScreenResponse__Output>): grpc.ClientUnaryCall;
  screen(argument: _agentpay_compliance_v1_ScreenRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_compliance_v1_ScreenResponse__Output>): grpc.ClientUnaryCall;
  screen(argument: _agentpay_compliance_v1_ScreenRequest, callback: grpc.requestCallback<_agentpay_compliance_v1_ScreenResponse__Output>): grpc.ClientUnaryCall;
  
  SetRules(argument: _agentpay_compliance_v1_RulesJson, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_compliance_v1_JsonReply__Output>): grpc.ClientUnaryCall;
  SetRules(argument: _agentpay_compliance_v1_RulesJson, metadata: grpc.Metadata, callback: grpc.requestCallback<_agentpay_compliance_v1_JsonReply__Output>): grpc.ClientUnaryCall;
  SetRules(argument: _agentpay_compliance_v1_RulesJson, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_compliance_v1_JsonReply__Output>): grpc.ClientUnaryCall;
  SetRules(argument: _agentpay_compliance_v1_RulesJson, callback: grpc.requestCallback<_agentpay_compliance_v1_JsonReply__Output>): grpc.ClientUnaryCall;
  setRules(argument: _agentpay_compliance_v1_RulesJson, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_compliance_v1_JsonReply__Output>): grpc.ClientUnaryCall;
  setRules(argument: _agentpay_compliance_v1_RulesJson, metadata: grpc.Metadata, callback: grpc.requestCallback<_agentpay_compliance_v1_JsonReply__Output>): grpc.ClientUnaryCall;
  setRules(argument: _agentpay_compliance_v1_RulesJson, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_compliance_v1_JsonReply__Output>): grpc.ClientUnaryCall;
  setRules(argument: _agentpay_compliance_v1_RulesJson, callback: grpc.requestCallback<_agentpay_compliance_v1_JsonReply__Output>): grpc.ClientUnaryCall;
  
  /**
   * Stores a new version of a list as `pending` (it is checked in full here); ActivateVersion makes it the
   * one in effect, replacing the previous version whole.
   */
  UploadVersion(argument: _agentpay_compliance_v1_UploadVersionRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_compliance_v1_JsonReply__Output>): grpc.ClientUnaryCall;
  UploadVersion(argument: _agentpay_compliance_v1_UploadVersionRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_agentpay_compliance_v1_JsonReply__Output>): grpc.ClientUnaryCall;
  UploadVersion(argument: _agentpay_compliance_v1_UploadVersionRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_compliance_v1_JsonReply__Output>): grpc.ClientUnaryCall;
  UploadVersion(argument: _agentpay_compliance_v1_UploadVersionRequest, callback: grpc.requestCallback<_agentpay_compliance_v1_JsonReply__Output>): grpc.ClientUnaryCall;
  /**
   * Stores a new version of a list as `pending` (it is checked in full here); ActivateVersion makes it the
   * one in effect, replacing the previous version whole.
   */
  uploadVersion(argument: _agentpay_compliance_v1_UploadVersionRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_compliance_v1_JsonReply__Output>): grpc.ClientUnaryCall;
  uploadVersion(argument: _agentpay_compliance_v1_UploadVersionRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_agentpay_compliance_v1_JsonReply__Output>): grpc.ClientUnaryCall;
  uploadVersion(argument: _agentpay_compliance_v1_UploadVersionRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_agentpay_compliance_v1_JsonReply__Output>): grpc.ClientUnaryCall;
  uploadVersion(argument: _agentpay_compliance_v1_UploadVersionRequest, callback: grpc.requestCallback<_agentpay_compliance_v1_JsonReply__Output>): grpc.ClientUnaryCall;
  
}

export interface ComplianceServiceHandlers extends grpc.UntypedServiceImplementation {
  ActivateVersion: grpc.handleUnaryCall<_agentpay_compliance_v1_VersionRef__Output, _agentpay_compliance_v1_JsonReply>;
  
  AddNote: grpc.handleUnaryCall<_agentpay_compliance_v1_CaseNote__Output, _agentpay_compliance_v1_JsonReply>;
  
  CloseCase: grpc.handleUnaryCall<_agentpay_compliance_v1_CaseClose__Output, _agentpay_compliance_v1_JsonReply>;
  
  /**
   * The admin API (docs/compliance.md). Requests are typed; replies carry the admin view as JSON
   * (`json`), exactly the body the gateway answers. Refusals: INVALID_ARGUMENT, NOT_FOUND,
   * FAILED_PRECONDITION (a state that forbids it), with the reason in details.
   */
  CreateList: grpc.handleUnaryCall<_agentpay_compliance_v1_CreateListRequest__Output, _agentpay_compliance_v1_JsonReply>;
  
  /**
   * Records a release or a rejection of a held payout's case; a repeat of the same decision answers the
   * case as it is (the gateway then carries it to transfers). Errors: NOT_FOUND, FAILED_PRECONDITION.
   */
  DecideCase: grpc.handleUnaryCall<_agentpay_compliance_v1_CaseDecision__Output, _agentpay_compliance_v1_JsonReply>;
  
  GetCase: grpc.handleUnaryCall<_agentpay_compliance_v1_CaseRef__Output, _agentpay_compliance_v1_JsonReply>;
  
  GetRules: grpc.handleUnaryCall<_agentpay_compliance_v1_Empty__Output, _agentpay_compliance_v1_JsonReply>;
  
  ListCases: grpc.handleUnaryCall<_agentpay_compliance_v1_ListCasesRequest__Output, _agentpay_compliance_v1_JsonReply>;
  
  ListLists: grpc.handleUnaryCall<_agentpay_compliance_v1_Empty__Output, _agentpay_compliance_v1_JsonReply>;
  
  /**
   * The rows of a report (docs/compliance.md "Reports"), oldest first; the gateway writes the CSV.
   */
  Report: grpc.handleUnaryCall<_agentpay_compliance_v1_ReportRequest__Output, _agentpay_compliance_v1_JsonReply>;
  
  /**
   * Screens one counterparty against every list in effect. A `hit` on a blocked list or a `review` on any
   * list opens a case for the operation (idempotent by operation kind + ref). Errors: INVALID_PARAMETER;
   * UNAVAILABLE when the store cannot answer (callers fail closed).
   */
  Screen: grpc.handleUnaryCall<_agentpay_compliance_v1_ScreenRequest__Output, _agentpay_compliance_v1_ScreenResponse>;
  
  SetRules: grpc.handleUnaryCall<_agentpay_compliance_v1_RulesJson__Output, _agentpay_compliance_v1_JsonReply>;
  
  /**
   * Stores a new version of a list as `pending` (it is checked in full here); ActivateVersion makes it the
   * one in effect, replacing the previous version whole.
   */
  UploadVersion: grpc.handleUnaryCall<_agentpay_compliance_v1_UploadVersionRequest__Output, _agentpay_compliance_v1_JsonReply>;
  
}

export interface ComplianceServiceDefinition extends grpc.ServiceDefinition {
  ActivateVersion: MethodDefinition<_agentpay_compliance_v1_VersionRef, _agentpay_compliance_v1_JsonReply, _agentpay_compliance_v1_VersionRef__Output, _agentpay_compliance_v1_JsonReply__Output>
  AddNote: MethodDefinition<_agentpay_compliance_v1_CaseNote, _agentpay_compliance_v1_JsonReply, _agentpay_compliance_v1_CaseNote__Output, _agentpay_compliance_v1_JsonReply__Output>
  CloseCase: MethodDefinition<_agentpay_compliance_v1_CaseClose, _agentpay_compliance_v1_JsonReply, _agentpay_compliance_v1_CaseClose__Output, _agentpay_compliance_v1_JsonReply__Output>
  CreateList: MethodDefinition<_agentpay_compliance_v1_CreateListRequest, _agentpay_compliance_v1_JsonReply, _agentpay_compliance_v1_CreateListRequest__Output, _agentpay_compliance_v1_JsonReply__Output>
  DecideCase: MethodDefinition<_agentpay_compliance_v1_CaseDecision, _agentpay_compliance_v1_JsonReply, _agentpay_compliance_v1_CaseDecision__Output, _agentpay_compliance_v1_JsonReply__Output>
  GetCase: MethodDefinition<_agentpay_compliance_v1_CaseRef, _agentpay_compliance_v1_JsonReply, _agentpay_compliance_v1_CaseRef__Output, _agentpay_compliance_v1_JsonReply__Output>
  GetRules: MethodDefinition<_agentpay_compliance_v1_Empty, _agentpay_compliance_v1_JsonReply, _agentpay_compliance_v1_Empty__Output, _agentpay_compliance_v1_JsonReply__Output>
  ListCases: MethodDefinition<_agentpay_compliance_v1_ListCasesRequest, _agentpay_compliance_v1_JsonReply, _agentpay_compliance_v1_ListCasesRequest__Output, _agentpay_compliance_v1_JsonReply__Output>
  ListLists: MethodDefinition<_agentpay_compliance_v1_Empty, _agentpay_compliance_v1_JsonReply, _agentpay_compliance_v1_Empty__Output, _agentpay_compliance_v1_JsonReply__Output>
  Report: MethodDefinition<_agentpay_compliance_v1_ReportRequest, _agentpay_compliance_v1_JsonReply, _agentpay_compliance_v1_ReportRequest__Output, _agentpay_compliance_v1_JsonReply__Output>
  Screen: MethodDefinition<_agentpay_compliance_v1_ScreenRequest, _agentpay_compliance_v1_ScreenResponse, _agentpay_compliance_v1_ScreenRequest__Output, _agentpay_compliance_v1_ScreenResponse__Output>
  SetRules: MethodDefinition<_agentpay_compliance_v1_RulesJson, _agentpay_compliance_v1_JsonReply, _agentpay_compliance_v1_RulesJson__Output, _agentpay_compliance_v1_JsonReply__Output>
  UploadVersion: MethodDefinition<_agentpay_compliance_v1_UploadVersionRequest, _agentpay_compliance_v1_JsonReply, _agentpay_compliance_v1_UploadVersionRequest__Output, _agentpay_compliance_v1_JsonReply__Output>
}
