// Worked examples of the signing rules, copied from the published signing vectors
// (shared/spec/vectors/signing.json). They are kept in the source because the document is served by the
// gateway, where the vectors file is not deployed; test/openapi-document.test.ts holds them to the file.
// Only the public keys are copied: the signatures verify with them, which checks a canonical string.

/** The public halves of the vectors' example keys (made for the vectors only; never use them). */
export const EXAMPLE_KEYS = {
  merchantPublicKey:
    '-----BEGIN PUBLIC KEY-----\nMIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA0I5xEmVluRVARppYuKag\nIXNTiv0zUg6MzfGibT+iPT8x8rTfXjDlphm1NjdVO/kletdSyEXpriPN3SbTHQig\n9bUCUoV8q1JFD//EHjJQRTMez3pOxTxc65oL4u7KyCD+nZ0d/JHriNrXklGvhrPf\nF+VNRZYUzbdYUdk/yXckf/sDNRPXw1xLjxDN0Xy7feIyssMsAxp33MnSpCArKzEh\n1jhytQSit2mn6fHphyO5Gpa5biW9aaTIBETGwepTPpUT1Cirz9JjipWaZhK3xN0o\nEawjkJYIMnyIk4JtbUnbQRnUYchb0wuu7uRLJj3wW+Tzd48UvKwOIsvLOR/H6TKG\nhwIDAQAB\n-----END PUBLIC KEY-----\n',
  platformPublicKey:
    '-----BEGIN PUBLIC KEY-----\nMIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEArvfhGL+ng1Pk+rb7Ma+t\nYhBLu8spC9ct0wScDmma37L0YynmpXEHJhMlkNsa89N8VWZxK1fA9daESWxSdYvu\n/mPqc3YNh2GK5Lk81MTCF0/pGH5gdf08KETrMF9sbdxvsWFyRnq+LUEhbojih5ce\n2DZ8uEfk19Iq1F/zhO1dJQbOY4DYfXjXarXlwpjvS9NLpdW+iIik+JaY+OQExFU8\nF4fzismsu68kAVlP+wxFUsU++UNq6gxX0QffCyXHR1xIdW4jIxeMUoJXILPnTzk8\nza27ovOT6XE4bZhQzW9qwNaqQhzgmS1nfKEdHJNPlmlSAP6sfyYW75NtjlgVZnb+\nZwIDAQAB\n-----END PUBLIC KEY-----\n',
} as const;

/** Vector "pay request": the object as sent (before `sign` is added), its canonical string and signature. */
export const PAY_REQUEST_EXAMPLE = {
  vector: 'pay request',
  object: {
    mchNo: 'M100200300',
    appId: 'APP001',
    reqTime: '2026-11-21 10:15:00',
    nonceStr: 'a1b2c3d4e5f6',
    clientIp: '203.0.113.7',
    bizOrderNo: 'ORD-20261121-0001',
    title: 'Pago de prueba ñ — café',
    description: '',
    method: 'mex_virtual_account',
    amount: 100.5,
    attach: null,
    notifyUrl: 'https://merchant.example/notify?x=1&y=2',
    extraParam: '{"customer":"C-9","tags":["a","b"]}',
  },
  canonical:
    'amount=100.5&appId=APP001&bizOrderNo=ORD-20261121-0001&clientIp=203.0.113.7&extraParam={"customer":"C-9","tags":["a","b"]}&mchNo=M100200300&method=mex_virtual_account&nonceStr=a1b2c3d4e5f6&notifyUrl=https://merchant.example/notify?x=1&y=2&reqTime=2026-11-21 10:15:00&title=Pago de prueba ñ — café',
  sign: 'U/9iubk4p27/QpNuB/blQDe8Pg2HCQXAgFZEndGkXX4Lpa1FwbSuO/SlCX6Lt72U0enJ4QBGQlWvx3lf0u5Ln7gldF0iUUgUlHzENsB8kkgGFJ0SlKmhY7phJG8g7rXfkclYeb0NBPGZ8vcylQLHMewZFUWiIH/LYPoho+Yn+dFyYH7qkjRMEgJkx7vZheHI2rkuoB0ycsjSNdw42l4QDo0TF50Ytb/ugzIa+BiML2uCMwY7Qe3sXokVx89xxKYdWBrXvVykj/vlSwP2BoxI1+D88AojpQrtZuhpj8dLRRsxqA1VNg0+M0p6vXQNUcmLDmdeBE6+bbkduiAHPFS2eg==',
};

/** Vector "response with object data": the object as sent (before `sign` is added), its canonical string and signature. */
export const PAY_REPLY_EXAMPLE = {
  vector: 'response with object data',
  object: {
    code: 0,
    msg: 'success',
    data: {
      status: 'wait',
      orderNo: 'P2026112110150012345',
      bizOrderNo: 'ORD-20261121-0001',
      payBody: '{"clabe":"646180157000000004","amount":100.5}',
    },
    resTime: '2026-11-21 10:15:01',
    traceId: '4bf92f3577b34da6a3ce929d0e0e4736',
  },
  canonical:
    'code=0&data={"bizOrderNo":"ORD-20261121-0001","orderNo":"P2026112110150012345","payBody":"{\\"clabe\\":\\"646180157000000004\\",\\"amount\\":100.5}","status":"wait"}&msg=success&resTime=2026-11-21 10:15:01&traceId=4bf92f3577b34da6a3ce929d0e0e4736',
  sign: 'DQ327azG7q6uGyBk5hdRU8BlohSOKr3978q6NAKK+osTeadUSCMxNfy0vhdy6A5cOgOwNhATPpSBKcs1XKNYPVZQ49t1Z8eZtt9ED3FfI0D6CULjiutRG4WCtRbfzFkRZW6URhP4HumU0FeJcjUuy6DIc2XYi/tXTD1nfgbjShqMyDBYOFDNLkIOSivmNG+efYF5GIMt3pEOXJStQ+qMw42V23FECathxO9s9UaobWt5kQnXqH2FyS1SwsRKShcphWgbPGaN9U6Q2Zz6FTye28CXzyPROh4L+7PBRU1CQmxF7hMCbR2SoH3E0u0nzC+JIk9zpmBx8Bk6iJ6BBn/kKw==',
};

/** Vector "response with array data": the object as sent (before `sign` is added), its canonical string and signature. */
export const OPTIONS_REPLY_EXAMPLE = {
  vector: 'response with array data',
  object: {
    code: 0,
    msg: 'success',
    data: [
      {
        code: '40012',
        name: 'BBVA MEXICO',
      },
      {
        code: '40002',
        name: 'BANAMEX',
      },
    ],
    resTime: '2026-11-21 10:18:01',
    traceId: '0af7651916cd43dd8448eb211c80319c',
  },
  canonical:
    'code=0&data=[{"code":"40012","name":"BBVA MEXICO"},{"code":"40002","name":"BANAMEX"}]&msg=success&resTime=2026-11-21 10:18:01&traceId=0af7651916cd43dd8448eb211c80319c',
  sign: 'LGR7NVkwP+/DLj8vxuDbNd3ViYYKaT3sHp2x7qSbq27wOQaispQkoUaG9a/L6uHl9KtnF+vSGozTOGe1x/VjUxaMVj1RYE7xll8p1zVFW1xeHZwZBaOrqoh227jo6babDldB8PqnwX1pVMVqgF2fh2NYmsbuC3tGZhk4JqB/RtjE5Ix6mXIqYHYw32tPH18ed0dsH9e2FocU+sSd8UdUoXBSnNEiVFSMr2/eBSSXZJwX+PslEIcWY61xZJ6CpOxt81192v8/mgg1CuwjrM70NYRpJBtEGgHQKvQSexWXhVj6h/Bg46DW2KVqjdL1hPgGSOdz1bpw2sAqh6mct2Jezw==',
};

/** Vector "error response, data null": the object as sent (before `sign` is added), its canonical string and signature. */
export const ERROR_REPLY_EXAMPLE = {
  vector: 'error response, data null',
  object: {
    code: 20052,
    msg: 'signature verification failed',
    data: null,
    resTime: '2026-11-21 10:19:00',
    traceId: 'b7ad6b7169203331b7ad6b7169203331',
  },
  canonical:
    'code=20052&msg=signature verification failed&resTime=2026-11-21 10:19:00&traceId=b7ad6b7169203331b7ad6b7169203331',
  sign: 'WByCpfMv1xFf1pnm+bx13VTBVEq9GMOpkD686yq0wfvPZh79y1rfANPLYoO/ewhuklPfvC2qpgcNe+uYzVvO+yaFML18kM1UAEEw5Q/XZWAZBUzAd+TxSm/doQ3sG3bkI13RvcFHjxVtikBnI61HPJ8/2oO9a9VhUg7dU1IrILYH8A/3jB8DUq8TwECCOk+JG0NjcEYHdWqM28sxbY+WO8206DNWoZYx8IRhpa3ZoKrT9fvNaL9cf60pQB0DXCHgMSUTtsLvg4fvkxlyRU0S+aks/GNVopFlJY3lkg7iIRO5dMnqm4lXf82KeicfJttwnX0jVFgdkVrAWZBWuLssNw==',
};

/** Vector "payment callback": the object as sent (before `sign` is added), its canonical string and signature. */
export const PAY_CALLBACK_EXAMPLE = {
  vector: 'payment callback',
  object: {
    code: 0,
    msg: 'success',
    noticeType: 'order_status_changed',
    mchNo: 'M100200300',
    appId: 'APP001',
    resTime: '2026-11-21 10:30:00',
    traceId: '5b8aa5a2d2c872e8321cf37308d69df2',
    data: {
      bizOrderNo: 'ORD-20261121-0001',
      orderNo: 'P2026112110150012345',
      title: 'Pago de prueba ñ — café',
      method: 'mex_virtual_account',
      amount: 100.5,
      fee: 1.51,
      realAmount: 98.99,
      status: 'success',
      settleStatus: 'not_settle',
      settleType: 'D+1',
      payTime: '2026-11-21 10:29:58',
      expiredTime: '2026-11-22 10:15:00',
      attach: 'order 1',
    },
  },
  canonical:
    'appId=APP001&code=0&data={"amount":100.5,"attach":"order 1","bizOrderNo":"ORD-20261121-0001","expiredTime":"2026-11-22 10:15:00","fee":1.51,"method":"mex_virtual_account","orderNo":"P2026112110150012345","payTime":"2026-11-21 10:29:58","realAmount":98.99,"settleStatus":"not_settle","settleType":"D+1","status":"success","title":"Pago de prueba ñ — café"}&mchNo=M100200300&msg=success&noticeType=order_status_changed&resTime=2026-11-21 10:30:00&traceId=5b8aa5a2d2c872e8321cf37308d69df2',
  sign: 'n0CaFp9HnAXQN3tZXHa7fk9mGbNz0gHDLzT7f0jlr+rqZYTWESkMo7fNVOkdu1coy+y6l77WaoayyoRt02JW3P1hnrCD5/Vz6FpMNSmw3EAlaa58j7IBs+rX6PFsxyrzNFZuuMdW/94F4XpPMRa7Efyk90AlpsIQn8hIfzpkR9/r91CnqUlQfI0lxKHm47Jf9GI2PcB8Nl7gMzlxAuS2K5bLLaMMf3iJWdcqirB1cp0ml0T7cIWXJYUJ2QKq987KbywpnTswun/8HkPNeqBRyedZaiKOTjXM9HM9FgBVHhAGvYA2nUiTNkYArcxCBkevUkX6LBUrCsXnCZYt3V0lgA==',
};
