/**
 * A private handlebars instance with kgen's templates. Templates only print: every decision is
 * made in the emitters' view models.
 */
import { readFileSync } from 'node:fs';
import Handlebars from 'handlebars';

const dir = new URL('../../templates/', import.meta.url);
const hbs = Handlebars.create();
hbs.registerHelper('join', (items: string[], sep: string) => items.join(sep));
hbs.registerPartial('banner', readFileSync(new URL('banner.hbs', dir), 'utf8'));

const cache = new Map<string, Handlebars.TemplateDelegate>();

export function render(name: string, view: object): string {
  let template = cache.get(name);
  if (!template) {
    template = hbs.compile(readFileSync(new URL(name, dir), 'utf8'), { noEscape: true, strict: true });
    cache.set(name, template);
  }
  return template(view);
}
