import { describeSdkChecks } from './support/sdk-suite.js';

// sdks/python: its own tests (every signing vector, signing and verifying, retries, callbacks) run by
// Python itself (/usr/bin/python3 with Debian's python3-cryptography, or AGENTPAY_PYTHON), and its endpoint
// table held to docs/openapi.json. Without that toolchain this fails with scripts/install-toolchains.sh.
describeSdkChecks('python');
