// Original file: proto/compliance/v1/compliance.proto


export interface VersionRef {
  'list_id'?: (string);
  'version_id'?: (string);
  'actor'?: (string);
  'approval_id'?: (string);
}

export interface VersionRef__Output {
  'list_id': (string);
  'version_id': (string);
  'actor': (string);
  'approval_id': (string);
}
