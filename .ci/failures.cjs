// Prints one line per failed test of a vitest JSON report, so the tail of the CI log names them.
const report = require(require('node:path').resolve(process.argv[2]));
const first = (text) =>
  String(text || '')
    .split('\n')[0]
    .slice(0, 300);
for (const file of report.testResults || []) {
  const name = file.name.replace(`${process.cwd()}/`, '');
  const failedTests = (file.assertionResults || []).filter((a) => a.status === 'failed');
  if (file.status === 'failed' && failedTests.length === 0)
    console.log(`${name}: ${first(file.message)}`);
  for (const test of failedTests)
    console.log(`${name} > ${test.fullName}: ${first(test.failureMessages?.[0])}`);
}
