/**
 * `yyyy-MM-dd HH:mm:ss` naming a real calendar date and time of day: month 01-12, a day the month has
 * (29 February only in leap years), hour 00-23. The merchant API's wire time, the admin API's too, and the
 * OpenAPI document's pattern for date-times.
 */
export const WIRE_TIME_PATTERN =
  '^(?:[0-9]{4}-(?:(?:0[13578]|1[02])-(?:0[1-9]|[12][0-9]|3[01])|(?:0[469]|11)-(?:0[1-9]|[12][0-9]|30)|02-(?:0[1-9]|1[0-9]|2[0-8]))|(?:[0-9]{2}(?:0[48]|[2468][048]|[13579][26])|(?:[02468][048]|[13579][26])00)-02-29) (?:[01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9]$';
