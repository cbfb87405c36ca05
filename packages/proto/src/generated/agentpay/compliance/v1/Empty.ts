// Original file: proto/compliance/v1/compliance.proto


export interface Empty {
}

export interface Empty__Output {
}
