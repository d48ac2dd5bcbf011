// Every catalogue declaration (contract/resources) as the console shows it: the adapted ones with their console-only
// touches (src/resources/<name>.ts), every other one straight from its declaration. The generated list and form
// screens (src/screens/catalogue) find their resource here by route, so declaring a resource with a route is
// enough for it to have screens — no wrapper per resource.
import { CATALOGUE, cardFormatsResource, resourceByName, type ResourceDeclaration } from '../../contract';
import { CardFormatTest } from './CardFormatTest';
import { fromDeclaration, type Resource } from './consoleResource';
import { clients } from './clients';
import { accessZones } from './accessZones';
import { controllers } from './controllers';
import { identities } from './identities';
import { visitors } from './visitors';
import { operatorGroups, roles } from './accessAdmin';
import { batchTemplates, licenses, userFields } from './identityData';
import { serviceAccounts, webHooks } from './integrations';

// a card format's form tests a raw value with the layout as typed
const cardFormats = fromDeclaration<any>(cardFormatsResource, { formPanel: CardFormatTest });
const ADAPTED: Resource<any>[] = [
  clients,
  controllers,
  accessZones,
  identities,
  visitors,
  roles,
  operatorGroups,
  userFields,
  batchTemplates,
  licenses,
  serviceAccounts,
  webHooks,
  cardFormats,
];
const made = new Map<string, Resource<any>>(ADAPTED.map((r) => [r.name, r]));

/** The console's resource of a declaration, by name (made once from the declaration when no adapter exists). */
export function consoleResource(name: string): Resource<any> {
  const known = made.get(name);
  if (known) return known;
  const d = resourceByName(name);
  if (!d) throw new Error(`No catalogue resource ${name}`);
  const r = fromDeclaration<any>(d);
  made.set(name, r);
  return r;
}

/** The declaration whose list, add or edit route is `path` (a route table pattern). */
export function declarationOfRoute(path: string): ResourceDeclaration<any> | undefined {
  return CATALOGUE.find(
    (d) => path === d.route || path === `${d.route}/add` || path === `${d.route}/edit/:id` || path === d.screens?.addRoute || path === d.screens?.editRoute,
  );
}
