// Original file: proto/ledger/v1/ledger.proto


export interface CheckRequest {
}

export interface CheckRequest__Output {
}
