// The generated screens of the resource catalogue: one list screen and one add/edit screen for every declaration
// with routes. The route table names them ('catalogueList', 'catalogueForm'); the declaration is found by the route's
// path, its console resource in src/resources/registry.ts. Title, icon and description are the route's, in the
// console's language. A resource that needs more (a key shown once, a history link) keeps a named screen of its
// own built from the same parts (src/screens/manage/integrations.tsx).
import { useRouteInfo } from '../../app/RouteContext';
import { routeDescription, routeTitle, useLocale } from '../../i18n';
import { ResourceForm } from '../../resources/ResourceForm';
import { consoleResource, declarationOfRoute } from '../../resources/registry';
import { ListScreen } from '../../ui/ListScreen';
import { PageHeader } from '../../ui/PageHeader';

const kebab = (s: string) => s.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

function useRouteResource() {
  const { route } = useRouteInfo();
  const d = declarationOfRoute(route.path);
  if (!d) throw new Error(`No catalogue resource has the route ${route.path}`);
  return { route, resource: consoleResource(d.name) };
}

export function CatalogueListScreen() {
  const { resource } = useRouteResource();
  return <ListScreen testId={kebab(resource.name)} resource={resource} />;
}

export function CatalogueFormScreen() {
  const { route, resource } = useRouteResource();
  useLocale();
  return (
    <div className="gh-page-wrap">
      <PageHeader title={routeTitle(route)} icon={route.icon} description={routeDescription(route)} />
      <ResourceForm resource={resource} />
    </div>
  );
}
