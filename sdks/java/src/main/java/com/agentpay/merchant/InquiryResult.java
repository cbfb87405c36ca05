package com.agentpay.merchant;

import java.util.Map;

/** {@code data} of inquire. A field the reply leaves out is null. */
public record InquiryResult(
    String bizInquryNo,
    String inquryNo,
    String status,
    Boolean accountValid,
    String uploadPayeeName) {
  static InquiryResult from(Map<String, Object> m) {
    return new InquiryResult(
        Fields.str(m, "bizInquryNo"),
        Fields.str(m, "inquryNo"),
        Fields.str(m, "status"),
        Fields.bool(m, "accountValid"),
        Fields.str(m, "uploadPayeeName"));
  }
}
