<?php

declare(strict_types=1);

// For use without Composer: `require 'path/to/sdks/php/src/autoload.php';` loads the Agentpay\ classes
// from this directory, as composer.json's PSR-4 rule does.
spl_autoload_register(static function (string $class): void {
    if (!str_starts_with($class, 'Agentpay\\')) {
        return;
    }
    $file = __DIR__ . '/' . str_replace('\\', '/', substr($class, strlen('Agentpay\\'))) . '.php';
    if (is_file($file)) {
        require $file;
    }
});
