/**
 * Embeds, message components (action rows of buttons) and modals as Discord checks them: the limits
 * on titles, fields and totals; button styles, labels and `custom_id`s (unique within a message, at
 * most 100 characters); a modal's title and text fields. A body Discord would refuse is refused here
 * with the same kind of 400, so a bridge that sends one fails its test.
 */
import { formError } from './messages.ts';
import type { Json } from './model.ts';

/** Component types (the ones the fake knows). */
export const Component = { ActionRow: 1, Button: 2, TextInput: 4, Label: 18 } as const;

const str = (v: unknown): v is string => typeof v === 'string';

/** Checks the embeds of a message body (at most 10; Discord's length limits; 6000 characters in all). */
export function checkEmbeds(embeds: unknown): void {
  if (embeds === undefined || embeds === null) return;
  if (!Array.isArray(embeds) || embeds.length > 10) throw formError('embeds', 'BASE_TYPE_MAX_LENGTH', 'Must be 10 or fewer in length.');
  embeds.forEach((raw: unknown, i) => {
    const e = (raw ?? {}) as Json;
    const at = `embeds.${i}`;
    const len = (v: unknown, max: number, field: string, min = 0): number => {
      if (v === undefined) return 0;
      if (!str(v) || v.length > max || v.length < min) throw formError(`${at}.${field}`, 'BASE_TYPE_BAD_LENGTH', `Must be between ${min} and ${max} in length.`);
      return v.length;
    };
    let total = len(e.title, 256, 'title') + len(e.description, 4096, 'description');
    if (e.color !== undefined && (typeof e.color !== 'number' || !Number.isInteger(e.color) || e.color < 0 || e.color > 0xffffff)) {
      throw formError(`${at}.color`, 'NUMBER_TYPE_MAX', 'Must be an integer from 0 to 16777215.');
    }
    const fields = e.fields ?? [];
    if (!Array.isArray(fields) || fields.length > 25) throw formError(`${at}.fields`, 'BASE_TYPE_MAX_LENGTH', 'Must be 25 or fewer in length.');
    fields.forEach((f: Json, j: number) => {
      total += len(f.name, 256, `fields.${j}.name`, 1) + len(f.value, 1024, `fields.${j}.value`, 1);
      if (f.name === undefined || f.value === undefined) throw formError(`${at}.fields.${j}`, 'BASE_TYPE_REQUIRED', 'This field is required');
    });
    const footer = (e.footer ?? {}) as Json;
    total += len(footer.text, 2048, 'footer.text');
    if (total > 6000) throw formError('embeds', 'MESSAGE_EMBEDS_TOO_LONG', 'Embed size exceeds maximum size of 6000');
  });
}

/** Checks the components of a message body: at most 5 action rows of at most 5 buttons, each with a valid style, label and unique custom id. */
export function checkComponents(components: unknown): void {
  if (components === undefined || components === null) return;
  if (!Array.isArray(components) || components.length > 5) throw formError('components', 'BASE_TYPE_MAX_LENGTH', 'Must be 5 or fewer in length.');
  const ids = new Set<string>();
  components.forEach((raw: unknown, i) => {
    const row = (raw ?? {}) as Json;
    if (row.type !== Component.ActionRow) throw formError(`components.${i}.type`, 'UNION_TYPE_CHOICES', 'Value of field "type" must be one of (1,).');
    const buttons = row.components;
    if (!Array.isArray(buttons) || buttons.length < 1 || buttons.length > 5) throw formError(`components.${i}.components`, 'BASE_TYPE_BAD_LENGTH', 'Must be between 1 and 5 in length.');
    buttons.forEach((b: Json, j: number) => {
      const at = `components.${i}.components.${j}`;
      if (b.type !== Component.Button) throw formError(`${at}.type`, 'UNION_TYPE_CHOICES', 'Only buttons are modelled by the fake.');
      if (typeof b.style !== 'number' || b.style < 1 || b.style > 5) throw formError(`${at}.style`, 'BASE_TYPE_CHOICES', 'Value must be one of (1, 2, 3, 4, 5).');
      if (!str(b.label) || b.label.length < 1 || b.label.length > 80) throw formError(`${at}.label`, 'BASE_TYPE_BAD_LENGTH', 'Must be between 1 and 80 in length.');
      if (b.style === 5) {
        if (!str(b.url) || b.custom_id !== undefined) throw formError(at, 'BUTTON_COMPONENT_URL_REQUIRED', 'A link button has a url and no custom_id.');
        return;
      }
      if (!str(b.custom_id) || b.custom_id.length < 1 || b.custom_id.length > 100) throw formError(`${at}.custom_id`, 'BASE_TYPE_BAD_LENGTH', 'Must be between 1 and 100 in length.');
      if (ids.has(b.custom_id)) throw formError(`${at}.custom_id`, 'COMPONENT_CUSTOM_ID_DUPLICATED', 'Component custom id cannot be duplicated');
      ids.add(b.custom_id);
    });
  });
}

/** The custom ids of the buttons a message shows. */
export function buttonIds(components: readonly unknown[]): string[] {
  return components.flatMap((row) => (((row as Json).components ?? []) as Json[]).map((b) => b.custom_id).filter(str));
}

/** The text fields of a modal: each with its custom id, whether it must be filled, and its length limits. */
export interface ModalField {
  customId: string;
  required: boolean;
  minLength: number;
  maxLength: number;
}

/** Checks a modal (callback type 9) and returns its text fields: a title of 1–45, 1–5 labels (or legacy rows) each holding a text input. */
export function checkModal(data: Json): ModalField[] {
  if (!str(data.custom_id) || data.custom_id.length < 1 || data.custom_id.length > 100) throw formError('data.custom_id', 'BASE_TYPE_BAD_LENGTH', 'Must be between 1 and 100 in length.');
  if (!str(data.title) || data.title.length < 1 || data.title.length > 45) throw formError('data.title', 'BASE_TYPE_BAD_LENGTH', 'Must be between 1 and 45 in length.');
  const rows = data.components;
  if (!Array.isArray(rows) || rows.length < 1 || rows.length > 5) throw formError('data.components', 'BASE_TYPE_BAD_LENGTH', 'Must be between 1 and 5 in length.');
  return rows.map((raw: Json, i: number): ModalField => {
    const at = `data.components.${i}`;
    let input: Json | undefined;
    if (raw.type === Component.Label) {
      if (!str(raw.label) || raw.label.length < 1 || raw.label.length > 45) throw formError(`${at}.label`, 'BASE_TYPE_BAD_LENGTH', 'Must be between 1 and 45 in length.');
      input = raw.component as Json | undefined;
    } else if (raw.type === Component.ActionRow) {
      input = ((raw.components ?? []) as Json[])[0];
      if (!str(input?.label)) throw formError(`${at}.components.0.label`, 'BASE_TYPE_REQUIRED', 'A text input in an action row needs a label.');
    }
    if (!input || input.type !== Component.TextInput) throw formError(at, 'UNION_TYPE_CHOICES', 'The fake models text inputs only.');
    if (!str(input.custom_id) || input.custom_id.length < 1 || input.custom_id.length > 100) throw formError(`${at}.custom_id`, 'BASE_TYPE_BAD_LENGTH', 'Must be between 1 and 100 in length.');
    if (input.style !== 1 && input.style !== 2) throw formError(`${at}.style`, 'BASE_TYPE_CHOICES', 'Value must be one of (1, 2).');
    const minLength = typeof input.min_length === 'number' ? input.min_length : 0;
    const maxLength = typeof input.max_length === 'number' ? input.max_length : 4000;
    if (minLength < 0 || maxLength > 4000 || minLength > maxLength) throw formError(`${at}.max_length`, 'NUMBER_TYPE_MAX', 'Lengths are from 0 to 4000.');
    if (input.placeholder !== undefined && (!str(input.placeholder) || input.placeholder.length > 100)) throw formError(`${at}.placeholder`, 'BASE_TYPE_MAX_LENGTH', 'Must be 100 or fewer in length.');
    return { customId: input.custom_id, required: input.required !== false, minLength, maxLength };
  });
}
