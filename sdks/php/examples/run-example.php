<?php

declare(strict_types=1);

// sdks/php/run-example: the example every agentpay SDK has (sdks/README.md).
//   run-example pay-and-query    creates a pay order, queries it, prints {"orderNo","bizOrderNo","status","clabe"}
//   run-example verify-callback  reads a callback body on stdin, prints ok or bad

require __DIR__ . '/../src/autoload.php';

use Agentpay\Callback;
use Agentpay\Client;
use Agentpay\Exception\AgentpayException;
use Agentpay\Exception\SignatureException;
use Agentpay\Money;

function env(string $name, ?string $default = null): string
{
    $value = getenv($name);
    if ($value === false || $value === '') {
        if ($default !== null) {
            return $default;
        }
        fwrite(STDERR, "run-example: set $name\n");
        exit(2);
    }
    return $value;
}

function pem(string $name): string
{
    $path = env($name);
    $text = @file_get_contents($path);
    if ($text === false) {
        fwrite(STDERR, "run-example: cannot read $name ($path)\n");
        exit(2);
    }
    return $text;
}

switch ($argv[1] ?? '') {
    case 'pay-and-query':
        $amountText = env('AGENTPAY_AMOUNT', '12.34');
        if (!preg_match('/^\d+(\.\d{1,2})?$/', $amountText)) {
            fwrite(STDERR, "run-example: AGENTPAY_AMOUNT must be pesos with at most 2 decimals, not $amountText\n");
            exit(2);
        }
        // Integer centavos from the text, then the API's number: no float arithmetic on money.
        [$pesos, $cents] = array_pad(explode('.', $amountText), 2, '');
        $amount = Money::centavosToAmount((int) $pesos * 100 + (int) str_pad($cents, 2, '0'));
        try {
            $client = new Client(
                baseUrl: env('AGENTPAY_URL'),
                mchNo: env('AGENTPAY_MCH_NO'),
                privateKey: pem('AGENTPAY_PRIVATE_KEY'),
                platformPublicKey: pem('AGENTPAY_PLATFORM_PUBLIC_KEY'),
            );
            $bizOrderNo = 'PHP-' . date('YmdHis') . '-' . bin2hex(random_bytes(4));
            // Both replies are verified with the platform key before they are returned.
            $created = $client->pay(
                bizOrderNo: $bizOrderNo,
                title: 'agentpay PHP SDK example',
                method: 'mex_virtual_account',
                amount: $amount,
            )->unwrap();
            $order = $client->queryPayOrder(orderNo: $created['orderNo'])->unwrap();
            $payBody = Money::parsePayBody($created['payBody']);
            echo json_encode([
                'orderNo' => $order['orderNo'],
                'bizOrderNo' => $order['bizOrderNo'],
                'status' => $order['status'],
                'clabe' => $payBody['clabe'],
            ], JSON_UNESCAPED_SLASHES), "\n";
        } catch (AgentpayException $e) {
            fwrite(STDERR, 'run-example: ' . get_class($e) . ': ' . $e->getMessage() . "\n");
            exit(1);
        } catch (InvalidArgumentException $e) {
            fwrite(STDERR, 'run-example: ' . $e->getMessage() . "\n");
            exit(2);
        }
        exit(0);

    case 'verify-callback':
        try {
            $key = Agentpay\Signing::publicKey(pem('AGENTPAY_PLATFORM_PUBLIC_KEY'));
        } catch (InvalidArgumentException $e) {
            fwrite(STDERR, 'run-example: ' . $e->getMessage() . "\n");
            exit(2);
        }
        try {
            Callback::verify((string) stream_get_contents(STDIN), $key);
            echo "ok\n";
            exit(0);
        } catch (SignatureException) {
            echo "bad\n";
            exit(1);
        }

    default:
        fwrite(STDERR, "usage: run-example pay-and-query | verify-callback\n");
        exit(2);
}
