package com.agentpay.merchant;

import java.util.Map;

/** POST /gateway/inqury: validates a payee account before a transfer. */
public final class InquiryParams extends Params<InquiryParams> {
  /** Your inquiry number, 1..100 characters, unique per merchant. */
  public InquiryParams bizInquryNo(String bizInquryNo) {
    return set("bizInquryNo", bizInquryNo);
  }

  /** {@code spei_transfer}, {@code bank_card}, ... */
  public InquiryParams payeeType(String payeeType) {
    return set("payeeType", payeeType);
  }

  /** An 18-digit CLABE for spei_transfer, a 16-digit debit card for bank_card. */
  public InquiryParams payeeAccount(String payeeAccount) {
    return set("payeeAccount", payeeAccount);
  }

  /** At most 50 characters. */
  public InquiryParams payeeName(String payeeName) {
    return set("payeeName", payeeName);
  }

  /** A public 5-digit Banxico code from payeeCodes ({@code 40012}), never a raw bank code ({@code 012}). */
  public InquiryParams payeeCode(String payeeCode) {
    return set("payeeCode", payeeCode);
  }

  /** An extension parameter: its JSON text (at most 2048 characters). */
  public InquiryParams extraParam(String json) {
    return set("extraParam", json);
  }

  /** An extension parameter as a JSON object, sent as its JSON text. */
  public InquiryParams extraParam(Map<String, ?> object) {
    return setExtraParam(object);
  }

  /** At most 500 characters. */
  public InquiryParams attach(String attach) {
    return set("attach", attach);
  }
}
