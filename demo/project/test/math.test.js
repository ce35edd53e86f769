// Run with: node test/math.test.js
import assert from 'node:assert/strict';
import { add, average } from '../src/math.js';

let failed = 0;
function check(name, run) {
  try {
    run();
    console.log(`ok - ${name}`);
  } catch (error) {
    failed += 1;
    console.log(`not ok - ${name}: ${error.message}`);
  }
}

check('add', () => assert.equal(add(2, 3), 5));
check('average of three', () => assert.equal(average([2, 4, 6]), 4));
check('average of none', () => assert.equal(average([]), 0));

console.log(failed === 0 ? 'all tests passed' : `${failed} test(s) failed`);
process.exitCode = failed === 0 ? 0 : 1;
