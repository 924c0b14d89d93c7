// validate.js SCHEMA FILE... - check JSON files against a JSON Schema
// (draft-07) with ajv.  Exits 1 and prints the errors if one is invalid.
'use strict';
const fs = require('fs');
const Ajv = require('ajv');

const [schemaPath, ...files] = process.argv.slice(2);
const ajv = new Ajv({ allErrors: true, strict: false });
const validate = ajv.compile(JSON.parse(fs.readFileSync(schemaPath, 'utf8')));
let bad = 0;
for (const f of files) {
  if (validate(JSON.parse(fs.readFileSync(f, 'utf8')))) {
    console.log('valid: ' + f);
  } else {
    bad++;
    console.log('INVALID: ' + f);
    console.log(JSON.stringify(validate.errors.slice(0, 10), null, 1));
  }
}
process.exit(bad ? 1 : 0);
