/// <reference lib="dom" />
/**
 * The question's side of the page: a labelled control per parameter of the
 * rule shown, and the simulation's options. It reads and writes the DOM
 * only; what the values mean is ./form-values.ts's.
 */

import type { ParamSpec, Rule } from '../contract/types.js';
import { keyedRecord, own } from '../keyed.js';
import { element, make } from './dom.js';
import {
  canonicalText,
  clipMessage,
  defaultText,
  fieldChoices,
  type RawValues,
  type SimulationChoice,
} from './form-values.js';

export function fieldId(spec: ParamSpec): string {
  return `param-${spec.name}`;
}

function allowedHint(spec: ParamSpec): string {
  switch (spec.type) {
    case 'integer':
      return `${spec.min}–${spec.max}`;
    case 'number':
      return `${spec.min} to ${spec.max}`;
    case 'text':
      return spec.allowed;
    default:
      return '';
  }
}

const EXACT_NOTE =
  'Exact by default; tick to simulate instead, as muster run does, with the same numbers for the same seed and trials.';

export class FormView {
  readonly picker = element<HTMLSelectElement>('rule-picker');
  readonly simulateBox = element<HTMLInputElement>('sim-on');
  readonly trialsInput = element<HTMLInputElement>('sim-trials');
  readonly seedInput = element<HTMLInputElement>('sim-seed');
  readonly streamInput = element<HTMLInputElement>('sim-stream');
  private readonly paramFields = element<HTMLDivElement>('param-fields');
  private readonly simulateNote = element<HTMLParagraphElement>('sim-note');
  private readonly simulationDetails = element<HTMLDetailsElement>('simulation');
  private readonly ruleAbout = element<HTMLParagraphElement>('rule-about');
  /** The simulate box as the user left it, while enumeration has no answer and the box is held ticked; else null. */
  private heldFrom: boolean | null = null;

  /** One labelled control per parameter, its meaning and a place for its message, all tied to it for screen readers. */
  buildFields(rule: Rule, raw: RawValues, changed: () => void): void {
    this.paramFields.replaceChildren();
    for (const spec of rule.params) this.paramFields.append(this.field(rule, spec, raw, changed));
  }

  private field(rule: Rule, spec: ParamSpec, raw: RawValues, changed: () => void): HTMLDivElement {
    const id = fieldId(spec);
    const field = make('div', `field field-${spec.type}`);
    field.dataset.param = spec.name;
    const label = make('label', '', spec.name);
    label.htmlFor = id;
    const doc = make('p', 'doc', spec.doc);
    doc.id = `${id}-doc`;
    const error = make('p', 'error');
    error.id = `${id}-error`;
    error.hidden = true;
    const value = own(raw, spec.name) ?? defaultText(spec);
    let control: HTMLInputElement | HTMLSelectElement;
    const choices = fieldChoices(rule, spec);
    if (choices) {
      control = make('select');
      for (const choice of choices) control.append(new Option(choice.text, choice.value));
      // A short label from a link (a=F1) selects its value; a value the rule refuses stays visible, so its message
      // makes sense.
      const shown = canonicalText(rule, spec, value) ?? value;
      if (!choices.some((choice) => choice.value === shown)) control.append(new Option(shown, shown));
      control.value = shown;
      control.addEventListener('change', changed);
    } else if (spec.type === 'boolean') {
      control = make('input');
      control.type = 'checkbox';
      control.checked = value === 'true';
      if (value !== 'true' && value !== 'false') control.dataset.raw = value;
      control.addEventListener('change', () => {
        delete (control as HTMLInputElement).dataset.raw;
        changed();
      });
    } else {
      control = make('input');
      if (spec.type === 'integer' || spec.type === 'number') {
        control.type = 'number';
        control.min = String(spec.min);
        control.max = String(spec.max);
        control.step = spec.type === 'integer' ? '1' : 'any';
        control.inputMode = spec.type === 'integer' ? 'numeric' : 'decimal';
        // A number field cannot hold text such as "abc" from a hash: keep it until the field is edited, so the message
        // names it.
        control.value = value;
        if (control.value !== value.trim()) control.dataset.raw = value;
      } else {
        control.type = 'text';
        control.value = value;
        control.spellcheck = false;
        control.autocomplete = 'off';
      }
      control.addEventListener('input', () => {
        delete (control as HTMLInputElement).dataset.raw;
        changed();
      });
    }
    control.id = id;
    control.name = spec.name;
    control.setAttribute('aria-describedby', `${doc.id} ${error.id}`);
    const hint = allowedHint(spec);
    const row = make('div', 'control');
    if (spec.type === 'boolean') {
      row.append(control, label);
    } else {
      row.append(label, control);
      // A list shows its values itself; a typed field says what it takes.
      if (hint && !choices) row.append(make('span', 'hint', hint));
    }
    field.append(row, error, doc);
    return field;
  }

  readFields(rule: Rule): RawValues {
    const raw: RawValues = keyedRecord();
    for (const spec of rule.params) {
      const control = document.getElementById(fieldId(spec)) as HTMLInputElement | HTMLSelectElement | null;
      if (!control) continue;
      if (control.dataset.raw !== undefined) raw[spec.name] = control.dataset.raw;
      else if (control instanceof HTMLInputElement && control.type === 'checkbox')
        raw[spec.name] = String(control.checked);
      else raw[spec.name] = control.value;
    }
    return raw;
  }

  showFieldError(id: string, message: string | undefined): void {
    const control = document.getElementById(id);
    const error = document.getElementById(`${id}-error`);
    if (!control || !error) return;
    error.textContent = message === undefined ? '' : clipMessage(message);
    error.hidden = !message;
    if (message) control.setAttribute('aria-invalid', 'true');
    else control.removeAttribute('aria-invalid');
  }

  readSimulation(): SimulationChoice {
    return {
      simulate: this.simulateBox.checked,
      trials: this.trialsInput.value,
      seed: this.seedInput.value,
      stream: this.streamInput.value,
    };
  }

  /** Whether the person asked to simulate: the box as they left it, even while it is held ticked (forceSimulation). */
  chosenSimulate(): boolean {
    return this.heldFrom ?? this.simulateBox.checked;
  }

  /** Ticks and locks the simulate box where a rule file's enumeration gives no answer, and gives it back after. */
  forceSimulation(force: boolean): void {
    if (force && this.heldFrom === null) {
      this.heldFrom = this.simulateBox.checked;
      this.simulateBox.checked = true;
      this.simulateBox.disabled = true;
      this.simulateNote.textContent =
        'No exact value at these parameters (enumerating the rule’s dice is past the page’s budget): it is ' +
        'simulated in the page, with muster run’s streams.';
    } else if (!force && this.heldFrom !== null) {
      this.simulateBox.checked = this.heldFrom;
      this.simulateBox.disabled = false;
      this.simulateNote.textContent = EXACT_NOTE;
      this.heldFrom = null;
    }
  }

  setSimulation(rule: Rule, choice: SimulationChoice): void {
    this.heldFrom = null;
    this.simulateBox.checked = choice.simulate || !rule.exact;
    this.simulateBox.disabled = !rule.exact;
    this.trialsInput.value = choice.trials;
    this.seedInput.value = choice.seed;
    this.streamInput.value = choice.stream;
    this.simulateNote.textContent = rule.exact
      ? EXACT_NOTE
      : 'This rule has no exact solution: it is simulated in the page, with muster run’s streams.';
    if (choice.simulate || !rule.exact) this.simulationDetails.open = true;
  }

  describeRule(rule: Rule): void {
    this.ruleAbout.textContent = `${rule.summary} (${rule.source})`;
    element('answer-source').textContent = `Rule text: ${rule.source}`;
    document.title = `${rule.title} — muster calculator`;
  }
}
