<?php

declare(strict_types=1);

// `run-tests e2e`: every typed call against a running platform (sdks/README.md), with the merchant from
// AGENTPAY_URL, AGENTPAY_MCH_NO, AGENTPAY_PRIVATE_KEY and AGENTPAY_PLATFORM_PUBLIC_KEY; one JSON line per
// call, named `e2e: <operationId>`. The merchant needs an available balance for the transfer.

use Agentpay\Client;
use Agentpay\Money;
use Agentpay\ResultCode;

$client = new Client(
    baseUrl: (string) getenv('AGENTPAY_URL'),
    mchNo: (string) getenv('AGENTPAY_MCH_NO'),
    privateKey: (string) file_get_contents((string) getenv('AGENTPAY_PRIVATE_KEY')),
    platformPublicKey: (string) file_get_contents((string) getenv('AGENTPAY_PLATFORM_PUBLIC_KEY')),
);
$run = bin2hex(random_bytes(4));
$codes = fn (array $items): array => array_column($items, 'code');

test('e2e: payMethods', function () use ($client, $codes): void {
    same(['mex_virtual_account'], $codes($client->payMethods()->unwrap()));
});

test('e2e: payeeTypes', function () use ($client, $codes): void {
    same(true, in_array('spei_transfer', $codes($client->payeeTypes()->unwrap()), true));
});

test('e2e: payeeCodes', function () use ($client, $codes): void {
    same(true, in_array('40012', $codes($client->payeeCodes('spei_transfer')->unwrap()), true));
});

$order = null;
test('e2e: pay', function () use ($client, $run, &$order): void {
    $params = [
        'bizOrderNo' => "PHP-E2E-$run",
        'title' => 'Cinco pesos ñ',
        'method' => 'mex_virtual_account',
        'amount' => 5.0, // signed as 5, as the platform reads it
        'extraParam' => ['customer' => ['id' => 'C-9', 'note' => null]],
    ];
    $order = $client->pay(...$params)->unwrap();
    same('wait', $order['status']);
    same(1, preg_match('/^\d{18}$/', Money::parsePayBody($order['payBody'])['clabe']));
    same($order['orderNo'], $client->pay(...$params)->unwrap()['orderNo'], 'a repeat returns the same order');
    $changed = $client->pay(...['amount' => 6] + $params);
    same(ResultCode::DUPLICATE_ORDER, $changed->code, 'a changed repeat');
    same(null, $changed->data);
});

test('e2e: queryPayOrder', function () use ($client, $run, &$order): void {
    $queried = $client->queryPayOrder(bizOrderNo: "PHP-E2E-$run")->unwrap();
    same([$order['orderNo'], 5, 'wait'], [$queried['orderNo'], $queried['amount'], $queried['status']]);
    same(ResultCode::ORDER_NOT_FOUND, $client->queryPayOrder(bizOrderNo: "PHP-NONE-$run")->code);
});

test('e2e: syncPayOrder', function () use ($client, &$order): void {
    same('wait', $client->syncPayOrder(orderNo: $order['orderNo'])->unwrap()['orderStatus']);
});

test('e2e: close', function () use ($client, &$order): void {
    $closed = $client->close(orderNo: $order['orderNo'], useCancel: true);
    same([0, null], [$closed->code, $closed->data]);
    same('cancel', $client->queryPayOrder(orderNo: $order['orderNo'])->unwrap()['status']);
});

test('e2e: inquire', function () use ($client, $run): void {
    $inquiry = $client->inquire("PHP-INQ-$run", 'spei_transfer', '646180110400000007', payeeName: 'Ana')->unwrap();
    same(['valid', true], [$inquiry['status'], $inquiry['accountValid']]);
});

test('e2e: transfer', function () use ($client, $run): void {
    $transfer = $client->transfer("PHP-TR-$run", 1.5, 'spei_transfer', '646180110400000007', payeeName: 'Ana')->unwrap();
    same("PHP-TR-$run", $transfer['bizTransferNo']);
});

test('e2e: queryTransferOrder', function () use ($client, $run): void {
    $queried = $client->queryTransferOrder(bizTransferNo: "PHP-TR-$run")->unwrap();
    same([1.5, '90646'], [$queried['amount'], $queried['payeeCode']]);
});

test('e2e: refund', function () use ($client, $run, &$order): void {
    // The order was cancelled, never paid: nothing to refund, and nothing created under the number.
    $refused = $client->refund("PHP-RF-$run", orderNo: $order['orderNo']);
    same([ResultCode::REFUND_NOT_POSSIBLE, null], [$refused->code, $refused->data]);
    same(true, str_contains($refused->msg, 'order not paid'), $refused->msg);
});

test('e2e: queryRefund', function () use ($client, $run): void {
    same(ResultCode::REFUND_NOT_FOUND, $client->queryRefund(bizRefundNo: "PHP-RF-$run")->code);
});

$batch = [];
test('e2e: transferBatch', function () use ($client, $run, &$batch): void {
    $items = [];
    foreach ([0, 1] as $i) {
        $items[] = ['bizTransferNo' => "PHP-BI-$run-$i", 'amount' => 1, 'payeeType' => 'spei_transfer',
            'payeeAccount' => '646180110400000007', 'payeeName' => 'Ana'];
    }
    $batch = $client->transferBatch("PHP-BATCH-$run", $items)->unwrap();
    same(["PHP-BATCH-$run", 2, 'progress'], [$batch['bizBatchNo'], $batch['count'], $batch['status']]);
});

test('e2e: queryTransferBatch', function () use ($client, $run, &$batch): void {
    $page = $client->queryTransferBatch(batchNo: $batch['batchNo'])->unwrap();
    $numbers = array_map(fn (array $item): string => $item['bizTransferNo'], $page['items']);
    sort($numbers);
    same(["PHP-BI-$run-0", "PHP-BI-$run-1"], $numbers);
});

test('e2e: balance', function () use ($client): void {
    same('MXN', $client->balance()->unwrap()['currency']);
});

test('e2e: balanceRecords', function () use ($client, $run): void {
    $zone = new DateTimeZone(Client::DEFAULT_TIME_ZONE);
    $start = (new DateTimeImmutable('-1 day', $zone))->format('Y-m-d H:i:s');
    $end = (new DateTimeImmutable('+1 day', $zone))->format('Y-m-d H:i:s');
    $page = $client->balanceRecords($start, $end, limit: 1)->unwrap();
    same(1, count($page['records']));
    $mine = array_filter(
        iterator_to_array($client->allBalanceRecords($start, $end, 2), false),
        fn (array $r) => ($r['bizTransferNo'] ?? '') === "PHP-TR-$run",
    );
    same(true, in_array('transfer_freeze', array_column($mine, 'type'), true), 'the transfer froze its amount');
});

test('e2e: queryLimits', function () use ($client): void {
    $limits = $client->queryLimits()->unwrap();
    same(true, array_key_exists('perTransfer', $limits['limits']['payout']), 'the payout limits are named');
});

$payeeId = null;
test('e2e: registerPayee', function () use ($client, &$payeeId): void {
    $payee = $client->registerPayee('spei_transfer', '646180110400000007', 'Ana Payee')->unwrap();
    same(true, in_array($payee['status'], ['cooling', 'usable'], true));
    $payeeId = $payee['payeeId'];
});

test('e2e: queryPayees', function () use ($client, &$payeeId): void {
    $page = $client->queryPayees(limit: 50)->unwrap();
    same(true, in_array($payeeId, array_column($page['payees'], 'payeeId'), true), 'the new payee is listed');
});

test('e2e: removePayee', function () use ($client, &$payeeId): void {
    same('removed', $client->removePayee($payeeId)->unwrap()['status']);
});
