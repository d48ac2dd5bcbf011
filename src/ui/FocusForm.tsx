// Every form of the console is a FocusForm (issue 29): react-final-form's Form with a focus decorator, so a save
// that the form's own checks refuse puts the keyboard focus on the first field with an error, and a save the
// server refuses (400, `violations` naming fields) does the same when the violations arrive. "First" is the order
// the fields have on screen (document order), repeated rows and pickers included (WCAG 2.1 3.3.1, 3.3.3, 2.4.3).
//
// A field is found by the name its control stands for: `data-field`, else the control's `name`, else the
// `field-<name>` id the forms give their controls (a reference picker is a button, a date a Blueprint input of its
// own: neither has a name). Only controls of this form count, not those of a form kept open in another view.
import { useEffect, useMemo, useRef, type MouseEvent, type ReactNode } from 'react';
import { getIn, type Decorator } from 'final-form';
import { Form, type FormProps, type FormRenderProps } from 'react-final-form';

interface FocusableInput {
  name: string;
  focus: () => void;
}

const CONTROLS = 'input, select, textarea, button, [data-field], [contenteditable="true"]';

/** The field a control stands for ('' when none). */
export function fieldOf(el: Element): string {
  const named = el.getAttribute('data-field') ?? el.getAttribute('name');
  if (named) return named;
  return el.id.startsWith('field-') ? el.id.slice('field-'.length) : '';
}

/** 'credentials[0].number' → 'credentials.0.number': a final-form name as the server's violations spell it. */
const asPath = (name: string) => name.replace(/\[(\d+)\]/g, '.$1');

/** The controls of `scope` that stand for a field and can take the focus, in document order (the first of each field). */
export function fieldControls(scope: Element | null): FocusableInput[] {
  if (!scope) return [];
  const seen = new Set<string>();
  const out: FocusableInput[] = [];
  for (const el of Array.from(scope.querySelectorAll<HTMLElement>(CONTROLS))) {
    const name = fieldOf(el);
    if (!name || seen.has(name)) continue;
    if ((el as HTMLInputElement).type === 'hidden' || el.matches(':disabled') || !el.getClientRects().length) continue;
    seen.add(name);
    out.push({ name, focus: () => el.focus() });
  }
  return out;
}

/**
 * After each submit, the first control in error takes the focus. (final-form-focus does this, but its 1.x reads the
 * errors it was last told of, which final-form 5 no longer tells it of before a submit that is refused: a form loaded
 * valid and then typed wrong kept the focus on Save; its 2.0 moves the focus at every keystroke, final-form-focus#47.
 * This asks the form for its state after the submit.)
 */
function focusDecorator<V>(controls: () => FocusableInput[]): Decorator<V> {
  return (form) => {
    const submit = form.submit;
    const after = () => {
      const { errors, submitErrors, hasValidationErrors } = form.getState();
      const wrong = hasValidationErrors ? errors : submitErrors;
      if (wrong && Object.keys(wrong).length) findInput(controls(), wrong)?.focus();
    };
    form.submit = () => {
      const result = submit.call(form);
      if (result && typeof (result as Promise<unknown>).then === 'function') void (result as Promise<unknown>).then(after, () => undefined);
      else after();
      return result;
    };
    return () => {
      form.submit = submit;
    };
  };
}

/** The first control whose field has an error: `errors` nested as final-form keeps them, or flat by field name. */
const findInput = (inputs: FocusableInput[], errors: object) => inputs.find((i) => getIn(errors, i.name) || (errors as Record<string, unknown>)[i.name]);

/**
 * A mouse press on a save button leaves the focus in the field being typed in. Otherwise the press blurs the field,
 * the blur shows that field's message, the message pushes the button down before it is released, and the click lands
 * beside it: the save never happened and the focus stayed on the button (seen on every form whose save sits under a
 * message that appears on leaving a field: a batch template's Name, the shift settings, a license key, the company
 * ID; now and then on others, as the page's scroll placed them). The click itself submits; the fields commit their
 * values as they are typed, not on leaving them.
 */
function keepFieldFocused(e: MouseEvent) {
  if (e.button !== 0 || !(e.target instanceof Element) || !e.target.closest('button[type="submit"]')) return;
  if (document.activeElement?.matches('input, textarea') && e.currentTarget.contains(document.activeElement)) e.preventDefault();
}

type Props<V> = Omit<FormProps<V>, 'decorators' | 'component'> & {
  /**
   * What the server refused, as it answered (`field` is the request's path: 'credentials.0.number'). The first field
   * named here is focused each time a new list arrives: pass the list the form's actor holds, not one made anew on
   * each render.
   */
  violations?: readonly { field: string }[] | null;
};

export function FocusForm<V = Record<string, unknown>>({ violations, render, children, ...props }: Props<V>) {
  const scope = useRef<HTMLDivElement>(null);
  // one decorator for the life of the form (react-final-form applies decorators once)
  const decorators = useMemo(() => [focusDecorator<V>(() => fieldControls(scope.current))], []);
  useEffect(() => {
    if (!violations?.length) return;
    const refused = new Set(violations.map((v) => asPath(v.field)));
    fieldControls(scope.current)
      .find((i) => refused.has(asPath(i.name)))
      ?.focus();
  }, [violations]);
  const draw = (p: FormRenderProps<V>): ReactNode => (
    <div ref={scope} className="gh-contents" onMouseDownCapture={keepFieldFocused}>
      {render ? render(p) : typeof children === 'function' ? children(p) : children}
    </div>
  );
  return <Form<V> {...props} decorators={decorators} render={draw} />;
}
