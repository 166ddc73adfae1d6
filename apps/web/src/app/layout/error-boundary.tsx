import { Component, type ReactNode } from 'react';

type ErrorBoundaryProps = { fallback: ReactNode; children: ReactNode };

/**
 * A screen that throws while rendering (or whose code cannot be fetched, say after a deploy)
 * shows the error page instead of a blank window. The routes give each page its own boundary,
 * so moving to another page starts afresh.
 */
export class ErrorBoundary extends Component<ErrorBoundaryProps, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }

  override render() {
    return this.state.failed ? this.props.fallback : this.props.children;
  }
}
