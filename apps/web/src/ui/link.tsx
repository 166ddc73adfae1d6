import { Link, type LinkProps, useNavigate } from 'react-router';
import { useLocalize } from '@/i18n/use-locale';

export type AppLinkProps = Omit<LinkProps, 'to'> & {
  /** An unprefixed path from config/paths; the page's locale prefix is added. */
  to: string;
};

export function AppLink({ to, ...props }: AppLinkProps) {
  const localizeLink = useLocalize();
  return <Link to={localizeLink(to)} {...props} />;
}

/** navigate() for unprefixed paths: stays in the page's locale. */
export function useAppNavigate(): (to: string, options?: { replace?: boolean }) => void {
  const navigate = useNavigate();
  const localizeLink = useLocalize();
  return (to, options) => void navigate(localizeLink(to), options);
}
