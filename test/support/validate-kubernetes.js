// Checks every document of a Kubernetes manifest (YAML, several documents allowed) against the
// Kubernetes API schema, as compiled into the kubernetes-models package (JSON schemas generated from
// the Kubernetes OpenAPI definitions). Prints one line per problem and exits 1 on any; 0 when valid.
// Usage: NODE_PATH=node_modules node test/support/validate-kubernetes.js FILE
"use strict";
const fs = require("fs");
const YAML = require("yaml");

const file = process.argv[2];
const docs = YAML.parseAllDocuments(fs.readFileSync(file, "utf8"));
let problems = 0;
docs.forEach((doc, i) => {
  const where = `${file}: document ${i + 1}`;
  if (doc.errors.length > 0) {
    doc.errors.forEach((e) => console.log(`${where}: YAML: ${e.message}`));
    problems += doc.errors.length;
    return;
  }
  const object = doc.toJS();
  if (!object || typeof object.apiVersion !== "string" || typeof object.kind !== "string") {
    console.log(`${where}: no apiVersion and kind`);
    problems += 1;
    return;
  }
  let Model;
  try {
    Model = require(`kubernetes-models/${object.apiVersion}`)[object.kind];
  } catch (e) {
    Model = undefined;
  }
  if (!Model) {
    console.log(`${where}: ${object.apiVersion} ${object.kind} is not a Kubernetes API kind`);
    problems += 1;
    return;
  }
  try {
    new Model(object).validate();
    console.log(`${where}: ${object.apiVersion} ${object.kind} ${object.metadata && object.metadata.name}: valid`);
  } catch (e) {
    console.log(`${where}: ${object.apiVersion} ${object.kind}: ${e.message}`);
    problems += 1;
  }
});
process.exit(problems > 0 ? 1 : 0);
