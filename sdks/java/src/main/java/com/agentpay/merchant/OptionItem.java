package com.agentpay.merchant;

import java.util.Map;

/** An item of the options endpoints: a code to send and its name. A field the reply leaves out is null. */
public record OptionItem(
    String code,
    String name) {
  static OptionItem from(Map<String, Object> m) {
    return new OptionItem(
        Fields.str(m, "code"),
        Fields.str(m, "name"));
  }
}
