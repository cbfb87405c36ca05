<?php

declare(strict_types=1);

namespace Agentpay;

/**
 * Amounts are JSON numbers in pesos with at most 2 decimals (100.5 is 100.50 MXN). Keep money as integer
 * centavos in your own code and convert at the edge.
 */
final class Money
{
    /** Integer centavos as the API's amount: 10050 → 100.5 (one correctly rounded division). */
    public static function centavosToAmount(int $centavos): int|float
    {
        return $centavos % 100 === 0 ? intdiv($centavos, 100) : $centavos / 100;
    }

    /**
     * An API amount as integer centavos: 100.5 → 10050. Read from the number's shortest decimal text, so a
     * float artefact such as 0.1 + 0.2 is refused rather than rounded.
     *
     * @throws \InvalidArgumentException for a negative amount or one with more than 2 decimals
     */
    public static function amountToCentavos(int|float $amount): int
    {
        $text = Canonical::number($amount);
        if (!preg_match('/^(\d+)(?:\.(\d{1,2}))?$/', $text, $m)) {
            throw new \InvalidArgumentException("$text is not a non-negative amount with at most 2 decimals");
        }
        return (int) ($m[1] . str_pad($m[2] ?? '', 2, '0'));
    }

    /**
     * The `payBody` JSON text of a pay reply as an array: clabe, amount, bankCode, bankName,
     * beneficiaryName, expiredTime, reference, cashierUrl.
     *
     * @return array<string, mixed>
     */
    public static function parsePayBody(string $payBody): array
    {
        $parsed = json_decode($payBody, true);
        if (!is_array($parsed) || !is_string($parsed['clabe'] ?? null)) {
            throw new \InvalidArgumentException('payBody is not a JSON object with a clabe');
        }
        return $parsed;
    }
}
