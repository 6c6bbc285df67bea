/**
 * `--objective EXPR`: what a side plays for, as a weighted sum of a rule's metrics. The parser lives with the exact
 * arithmetic (src/exact/objective.ts), so that a rule file's own objective (src/rules/file-rule*.ts) reads the same
 * sums the analyses do; this module is the analyses' name for it.
 */
export { evaluateObjective, type Objective, objectiveNames, parseObjective } from '../exact/objective.js';
