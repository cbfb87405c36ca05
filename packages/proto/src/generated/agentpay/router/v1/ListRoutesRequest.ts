// Original file: proto/router/v1/router.proto


export interface ListRoutesRequest {
}

export interface ListRoutesRequest__Output {
}
