<?php

declare(strict_types=1);

// The PHP SDK's tests, with no dependency beyond PHP itself: `php tests/run.php` prints one JSON line per
// test ({"name","ok","error"?}) and exits 0 only when all pass; `php tests/run.php endpoints` prints the
// endpoint table and `php tests/run.php e2e` calls a running platform (sdks/README.md "The executables
// every SDK has").

require __DIR__ . '/../src/autoload.php';

use Agentpay\Callback;
use Agentpay\Canonical;
use Agentpay\Client;
use Agentpay\Endpoints;
use Agentpay\Exception\ApiException;
use Agentpay\Exception\HttpException;
use Agentpay\Exception\NetworkException;
use Agentpay\Exception\SignatureException;
use Agentpay\Money;
use Agentpay\RequestOptions;
use Agentpay\ResultCode;
use Agentpay\Signing;
use Agentpay\Transport\Transport;

if (($argv[1] ?? '') === 'endpoints') {
    $table = [];
    foreach (Endpoints::ALL as $operation => $endpoint) {
        if (!method_exists(Client::class, $operation)) {
            continue; // reported as missing by the comparison with docs/openapi.json
        }
        $params = [];
        $required = [];
        foreach ((new ReflectionMethod(Client::class, $operation))->getParameters() as $parameter) {
            if ($parameter->getName() === 'options') {
                continue;
            }
            $params[] = $parameter->getName();
            if (!$parameter->isOptional()) {
                $required[] = $parameter->getName();
            }
        }
        $table[$operation] = ['path' => $endpoint['path'], 'params' => $params, 'required' => $required];
    }
    echo json_encode($table, JSON_UNESCAPED_SLASHES), "\n";
    exit(0);
}

$failures = 0;

function test(string $name, callable $body): void
{
    global $failures;
    try {
        $body();
        echo json_encode(['name' => $name, 'ok' => true], JSON_UNESCAPED_UNICODE | JSON_UNESCAPED_SLASHES), "\n";
    } catch (Throwable $e) {
        $failures++;
        $error = get_class($e) . ': ' . $e->getMessage() . ' at ' . basename($e->getFile()) . ':' . $e->getLine();
        echo json_encode(['name' => $name, 'ok' => false, 'error' => $error], JSON_UNESCAPED_UNICODE | JSON_UNESCAPED_SLASHES), "\n";
    }
}

function same(mixed $expected, mixed $actual, string $what = ''): void
{
    if ($expected !== $actual) {
        throw new RuntimeException(($what !== '' ? "$what: " : '') . 'expected ' . var_export($expected, true) . ', got ' . var_export($actual, true));
    }
}

/** @param class-string<Throwable> $class */
function throws(string $class, callable $body): Throwable
{
    try {
        $body();
    } catch (Throwable $e) {
        if ($e instanceof $class) {
            return $e;
        }
        throw new RuntimeException("expected $class, got " . get_class($e) . ': ' . $e->getMessage());
    }
    throw new RuntimeException("expected $class, nothing was thrown");
}

if (($argv[1] ?? '') === 'e2e') {
    require __DIR__ . '/e2e.php';
    exit($failures === 0 ? 0 : 1);
}

$vectors = json_decode((string) file_get_contents(__DIR__ . '/../../vectors/signing.json'), false, 512, JSON_THROW_ON_ERROR);
$keys = [
    'merchant' => [Signing::privateKey($vectors->keys->merchant->privateKey, 'merchant'), Signing::publicKey($vectors->keys->merchant->publicKey, 'merchant')],
    'platform' => [Signing::privateKey($vectors->keys->platform->privateKey, 'platform'), Signing::publicKey($vectors->keys->platform->publicKey, 'platform')],
];
$other = ['merchant' => 'platform', 'platform' => 'merchant'];

/** A vector's object as PHP reads it: from its JSON text when it has one (5.0 stays a float), else from the file. */
function vectorObject(stdClass $case): stdClass
{
    return isset($case->json) ? json_decode($case->json, false, 512, JSON_THROW_ON_ERROR) : $case->object;
}

// --- The signing vectors ---------------------------------------------------------------------------------

foreach ($vectors->cases as $case) {
    test("vector: {$case->name}", function () use ($case, $keys, $other): void {
        $object = vectorObject($case);
        same($case->canonical, Canonical::string($object), 'canonical string');
        same($case->sign, Signing::sign($object, $keys[$case->signer][0]), 'signature');
        same(true, Signing::verify($object, $case->sign, $keys[$case->signer][1]), 'verifies with the signer key');
        same(false, Signing::verify($object, $case->sign, $keys[$other[$case->signer]][1]), 'verifies with the other key');
    });
}

foreach ($vectors->negative as $case) {
    test("negative: {$case->name}", function () use ($case, $keys): void {
        $object = vectorObject($case);
        same($case->canonical, Canonical::string($object), 'canonical string');
        same(false, Signing::verify($object, $object->sign, $keys['merchant'][1]), 'verifies with the merchant key');
        same(false, Signing::verify($object, $object->sign, $keys['platform'][1]), 'verifies with the platform key');
    });
}

// --- Canonical form of PHP values --------------------------------------------------------------------------

test('renders PHP floats and ints as ECMAScript String(n)', function (): void {
    $cases = [
        [5.0, '5'], [5, '5'], [100.50, '100.5'], [0.01, '0.01'], [99999999.99, '99999999.99'],
        [1.0E-7, '1e-7'], [0.000001, '0.000001'], [1.5e-7, '1.5e-7'], [1e21, '1e+21'], [1e20, '100000000000000000000'],
        [-0.0, '0'], [0.1 + 0.2, '0.30000000000000004'], [-12.5, '-12.5'], [123e-20, '1.23e-18'],
        [5e-324, '5e-324'], [1.7976931348623157e308, '1.7976931348623157e+308'], [2.0 ** 53, '9007199254740992'],
        [9007199254740993, '9007199254740992'], [PHP_INT_MAX, '9223372036854776000'], [-1e-7, '-1e-7'],
        [123456789012345680000.0, '123456789012345680000'], [0.000001234, '0.000001234'], [1e-6 / 10, '1e-7'],
    ];
    foreach ($cases as [$value, $text]) {
        same($text, Canonical::number($value), var_export($value, true));
    }
});

test('renders every number so that it reads back as the same double', function (): void {
    mt_srand(39);
    for ($i = 0; $i < 20000; $i++) {
        $value = unpack('E', pack('J', (mt_rand() << 32) | mt_rand()))[1];
        if (!is_finite($value)) {
            continue;
        }
        $text = Canonical::number($value);
        if ((float) $text !== $value && !($value == 0.0)) {
            throw new RuntimeException("$text does not read back as " . var_export($value, true));
        }
    }
});

test('signs a PHP array the merchant builds the same as the JSON it sends', function (): void {
    $params = ['mchNo' => 'M1', 'reqTime' => '2026-11-21 10:20:00', 'amount' => 5.0, 'attach' => null, 'description' => '', 'useCancel' => false, 'tags' => ['a', null, 2.0]];
    same('amount=5&mchNo=M1&reqTime=2026-11-21 10:20:00&tags=["a",null,2]&useCancel=false', Canonical::string($params));
    same('{"a":{},"b":[],"c":"x/y"}', Canonical::jcs(['b' => [], 'c' => 'x/y', 'a' => new stdClass()]));
});

test('keeps numeric-looking keys as strings and sorts them as text', function (): void {
    same('10=b&9=a', Canonical::string(['9' => 'a', '10' => 'b']));
    same('{"10":"b","9":"a","x":null}', Canonical::jcs(['9' => 'a', '10' => 'b', 'x' => null]));
    same('{"0":"a","1":"b"}', Canonical::jcs(json_decode('{"0":"a","1":"b"}', false)));
});

test('refuses values with no JSON form', function (): void {
    throws(InvalidArgumentException::class, fn () => Canonical::string(['amount' => NAN]));
    throws(InvalidArgumentException::class, fn () => Canonical::string(['amount' => INF]));
    throws(InvalidArgumentException::class, fn () => Canonical::string(['title' => ['x' => "\xff"]]));
});

// --- Money and keys ----------------------------------------------------------------------------------------

test('converts between integer centavos and amounts exactly', function (): void {
    same(100.5, Money::centavosToAmount(10050));
    same(1, Money::centavosToAmount(100));
    same(0.01, Money::centavosToAmount(1));
    same(10050, Money::amountToCentavos(100.5));
    same(500, Money::amountToCentavos(5.0));
    same(9999999999, Money::amountToCentavos(99999999.99));
    throws(InvalidArgumentException::class, fn () => Money::amountToCentavos(0.1 + 0.2));
    throws(InvalidArgumentException::class, fn () => Money::amountToCentavos(1.005));
    throws(InvalidArgumentException::class, fn () => Money::amountToCentavos(-1));
    same('646180157000000004', Money::parsePayBody('{"clabe":"646180157000000004","amount":100.5}')['clabe']);
});

test('refuses a private key given as the platform public key, and keys shorter than 2048 bits', function () use ($vectors): void {
    throws(InvalidArgumentException::class, fn () => Signing::publicKey($vectors->keys->platform->privateKey));
    throws(InvalidArgumentException::class, fn () => Signing::privateKey($vectors->keys->merchant->publicKey));
    $short = openssl_pkey_new(['private_key_bits' => 1024, 'private_key_type' => OPENSSL_KEYTYPE_RSA]);
    openssl_pkey_export($short, $pem);
    throws(InvalidArgumentException::class, fn () => Signing::privateKey($pem));
});

// --- The client, against a scripted transport ----------------------------------------------------------------

/** A transport that records each request and answers from a script of replies (or exceptions). */
final class ScriptedTransport implements Transport
{
    /** @var list<array{url: string, body: array<string, mixed>, headers: array<string, string>}> */
    public array $requests = [];

    /** @param list<array{status: int, body: string, headers?: array<string, string>}|Throwable> $replies */
    public function __construct(private array $replies)
    {
    }

    public function post(string $url, string $body, array $headers, float $timeoutSeconds): array
    {
        $this->requests[] = ['url' => $url, 'body' => json_decode($body, true), 'raw' => $body, 'headers' => $headers];
        $reply = array_shift($this->replies) ?? throw new RuntimeException('no reply scripted');
        if ($reply instanceof Throwable) {
            throw $reply;
        }
        return $reply + ['headers' => []];
    }
}

/** A reply envelope signed with the vectors' platform key. */
function signedReply(int $code, string $msg, mixed $data, int $status = 200): array
{
    global $keys;
    $reply = ['code' => $code, 'msg' => $msg, 'data' => $data, 'resTime' => '2026-11-21 10:15:01', 'traceId' => '4bf92f3577b34da6a3ce929d0e0e4736'];
    $reply['sign'] = Signing::sign($reply, $keys['platform'][0]);
    return ['status' => $status, 'body' => json_encode($reply, JSON_UNESCAPED_UNICODE | JSON_UNESCAPED_SLASHES)];
}

function client(ScriptedTransport $transport, array &$slept = [], int $maxRetries = 2): Client
{
    global $vectors;
    return new Client(
        baseUrl: 'http://gateway.test/',
        mchNo: 'M100200300',
        privateKey: $vectors->keys->merchant->privateKey,
        platformPublicKey: $vectors->keys->platform->publicKey,
        appId: 'APP001',
        maxRetries: $maxRetries,
        transport: $transport,
        sleep: function (float $seconds) use (&$slept): void {
            $slept[] = $seconds;
        },
    );
}

$payResult = ['bizOrderNo' => 'ORD-1', 'orderNo' => 'P1', 'status' => 'wait', 'payBody' => '{"clabe":"646180157000000004","amount":5}'];

test('signs a pay request with the merchant key, filling in the common parameters', function () use ($keys, $payResult): void {
    $transport = new ScriptedTransport([signedReply(0, 'success', $payResult)]);
    $reply = client($transport)->pay(
        bizOrderNo: 'ORD-1',
        title: 'Cinco pesos ñ',
        method: 'mex_virtual_account',
        amount: 5.0,
        extraParam: ['customer' => ['id' => 'C-9', 'note' => null]],
        options: new RequestOptions(clientIp: '203.0.113.7'),
    );
    same(0, $reply->code);
    same('P1', $reply->unwrap()['orderNo']);
    $sent = $transport->requests[0];
    same('http://gateway.test/gateway/pay', $sent['url']);
    same('application/json', $sent['headers']['content-type']);
    same('M100200300', $sent['body']['mchNo']);
    same('APP001', $sent['body']['appId']);
    same('203.0.113.7', $sent['body']['clientIp']);
    same('{"customer":{"id":"C-9","note":null}}', $sent['body']['extraParam']);
    same(1, preg_match('/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/', $sent['body']['reqTime']));
    same(1, preg_match('/^[0-9a-f]{32}$/', $sent['body']['nonceStr']));
    same(false, array_key_exists('description', $sent['body']), 'absent fields are left out');
    same(true, str_contains($sent['raw'], '"amount":5.0') || str_contains($sent['raw'], '"amount":5'), 'amount on the wire');
    same(true, Signing::verify($sent['body'], $sent['body']['sign'], $keys['merchant'][1]), 'the request verifies');
});

test('returns a verified business failure as an envelope, and unwrap throws it with code and msg', function (): void {
    $transport = new ScriptedTransport([signedReply(ResultCode::DUPLICATE_ORDER, 'duplicate order', null)]);
    $reply = client($transport)->pay('ORD-1', 't', 'mex_virtual_account', 11);
    same(30002, $reply->code);
    same(null, $reply->data);
    same(false, $reply->isSuccess());
    $error = throws(ApiException::class, fn () => $reply->unwrap());
    same(30002, $error->getCode());
    same('duplicate order', $error->msg);
    same('4bf92f3577b34da6a3ce929d0e0e4736', $error->traceId);
});

test('verifies error replies that come with HTTP 429 and 503 once retries are spent', function (): void {
    $transport = new ScriptedTransport([signedReply(50003, 'service unavailable', null, 503)]);
    $slept = [];
    $reply = client($transport, $slept, 0)->balance();
    same(50003, $reply->code);
});

test('refuses a reply whose data was changed, one without a signature, and one signed by another key', function () use ($keys, $payResult): void {
    $changed = signedReply(0, 'success', $payResult);
    $changed['body'] = str_replace('"P1"', '"P2"', $changed['body']);
    throws(SignatureException::class, fn () => client(new ScriptedTransport([$changed]))->queryPayOrder(orderNo: 'P1'));

    $unsigned = ['status' => 200, 'body' => '{"code":0,"msg":"success","data":null,"resTime":"2026-11-21 10:15:01","traceId":"x"}'];
    $e = throws(SignatureException::class, fn () => client(new ScriptedTransport([$unsigned]))->close(orderNo: 'P1'));
    same(true, str_contains($e->getMessage(), 'not signed'));

    $reply = ['code' => 0, 'msg' => 'success', 'data' => null, 'resTime' => '2026-11-21 10:15:01', 'traceId' => 'x'];
    $reply['sign'] = Signing::sign($reply, $keys['merchant'][0]);
    throws(SignatureException::class, fn () => client(new ScriptedTransport([['status' => 200, 'body' => json_encode($reply)]]))->close(orderNo: 'P1'));
});

test('throws HttpException for a reply that is no API envelope', function (): void {
    $transport = new ScriptedTransport([['status' => 404, 'body' => '<html>Not Found</html>']]);
    $e = throws(HttpException::class, fn () => client($transport)->balance());
    same(404, $e->status);
    same('<html>Not Found</html>', $e->bodyText);
    same(1, count($transport->requests), '404 is not retried');
});

test('retries a safe call after a network error, signing it afresh', function () use ($payResult): void {
    $transport = new ScriptedTransport([new NetworkException('connection refused'), signedReply(0, 'success', $payResult)]);
    $slept = [];
    $reply = client($transport, $slept)->pay('ORD-1', 't', 'mex_virtual_account', 5);
    same(0, $reply->code);
    same(2, count($transport->requests));
    same('ORD-1', $transport->requests[1]['body']['bizOrderNo']);
    same(true, $transport->requests[0]['body']['nonceStr'] !== $transport->requests[1]['body']['nonceStr'], 'a new nonce');
    same(1, count($slept));
    same(true, $slept[0] >= 0.1 && $slept[0] <= 0.2, 'the first wait is about 0.2 s');
});

test('retries after HTTP 503 and 429, honouring Retry-After', function () use ($payResult): void {
    $transport = new ScriptedTransport([
        ['status' => 503, 'body' => 'busy'],
        ['status' => 429, 'body' => '', 'headers' => ['retry-after' => '1']],
        signedReply(0, 'success', $payResult),
    ]);
    $slept = [];
    same(0, client($transport, $slept)->queryPayOrder(bizOrderNo: 'ORD-1')->code);
    same(3, count($transport->requests));
    same(1.0, $slept[1]);
});

test('gives up after maxRetries and throws the last network error', function (): void {
    $transport = new ScriptedTransport([new NetworkException('timed out', true), new NetworkException('timed out', true), new NetworkException('timed out', true)]);
    $e = throws(NetworkException::class, fn () => client($transport)->transfer('TR-1', 1.5, 'spei_transfer', '646180110400000007'));
    same(true, $e->timedOut);
    same(3, count($transport->requests));
});

test('never retries a call marked unsafe, nor one with the caller\'s own nonce', function (): void {
    $transport = new ScriptedTransport([new NetworkException('reset')]);
    throws(NetworkException::class, fn () => client($transport)->request('/gateway/some/new/create', ['x' => 1]));
    same(1, count($transport->requests));

    $transport = new ScriptedTransport([new NetworkException('reset')]);
    throws(NetworkException::class, fn () => client($transport)->balance(new RequestOptions(nonceStr: 'mine')));
    same(1, count($transport->requests));
    same('mine', $transport->requests[0]['body']['nonceStr']);
});

test('reads every page of the statement', function (): void {
    $record = fn (string $no) => ['recordNo' => $no, 'type' => 'pay_in', 'amount' => 1, 'fee' => 0, 'createTime' => '2026-11-21 10:00:00'];
    $transport = new ScriptedTransport([
        signedReply(0, 'success', ['records' => [$record('R1'), $record('R2')], 'nextCursor' => 'c2']),
        signedReply(0, 'success', ['records' => [$record('R3')]]),
    ]);
    $numbers = array_map(fn (array $r) => $r['recordNo'], iterator_to_array(client($transport)->allBalanceRecords('2026-11-01 00:00:00', '2026-12-01 00:00:00', 2), false));
    same(['R1', 'R2', 'R3'], $numbers);
    same('c2', $transport->requests[1]['body']['cursor']);
});

test('asks for orderNo or bizOrderNo', function (): void {
    throws(InvalidArgumentException::class, fn () => client(new ScriptedTransport([]))->queryPayOrder());
});

test('has a typed call for every entry of its endpoint table', function (): void {
    foreach (array_keys(Endpoints::ALL) as $operation) {
        same(true, method_exists(Client::class, $operation), $operation);
    }
});

// --- Callbacks -----------------------------------------------------------------------------------------------

test('verifies a callback over every field but sign, noticeType and mchNo included', function () use ($vectors): void {
    foreach ($vectors->cases as $case) {
        if (!isset($case->object->noticeType)) {
            continue;
        }
        $body = json_encode(['sign' => $case->sign] + (array) json_decode(json_encode($case->object), true), JSON_UNESCAPED_UNICODE | JSON_UNESCAPED_SLASHES);
        $callback = Callback::verify($body, $vectors->keys->platform->publicKey);
        same($case->object->mchNo, $callback['mchNo']);
        $withoutNotice = json_decode($body, true);
        unset($withoutNotice['noticeType']);
        throws(SignatureException::class, fn () => Callback::verify(json_encode($withoutNotice), $vectors->keys->platform->publicKey));
    }
});

test('refuses a callback with a changed amount, a missing signature or a body that is not JSON', function () use ($vectors): void {
    $case = null;
    foreach ($vectors->cases as $c) {
        if ($c->name === 'payment callback') {
            $case = $c;
        }
    }
    $callback = json_decode(json_encode($case->object), true);
    $callback['sign'] = $case->sign;
    same(true, Callback::isPayOrder(Callback::verify(json_encode($callback), $vectors->keys->platform->publicKey)));
    $callback['data']['amount'] = 1005;
    throws(SignatureException::class, fn () => Callback::verify(json_encode($callback), $vectors->keys->platform->publicKey));
    unset($callback['sign']);
    throws(SignatureException::class, fn () => Callback::verify(json_encode($callback), $vectors->keys->platform->publicKey));
    throws(SignatureException::class, fn () => Callback::verify('SUCCESS', $vectors->keys->platform->publicKey));
    same('SUCCESS', Callback::SUCCESS);
});

exit($failures === 0 ? 0 : 1);
