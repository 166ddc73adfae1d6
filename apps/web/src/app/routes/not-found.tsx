import { StatusPage } from '../layout/error-page';

export function NotFoundRoute() {
  return <StatusPage status={404} />;
}
