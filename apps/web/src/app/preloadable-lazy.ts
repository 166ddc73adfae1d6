import { type ComponentType, type LazyExoticComponent, lazy } from 'react';

type Module<Props> = { default: ComponentType<Props> };

/** A lazy component whose code can be asked for before it renders. */
export type PreloadableComponent<Props extends object = object> = LazyExoticComponent<ComponentType<Props>> & {
  preload: () => Promise<unknown>;
};

/**
 * React's lazy, with `preload()` to fetch the code before the component renders; once the code
 * has come, the component renders at once, without suspending. A component that suspends has its
 * Suspense boundary show its fallback, and React then holds back what replaces a fallback until
 * 300 ms after it was shown: a screen whose data had come waited that long to be shown
 * (docs/benchmarks.md, "3 December").
 */
export function preloadableLazy<Props extends object>(load: () => Promise<Module<Props>>): PreloadableComponent<Props> {
  let loading: Promise<Module<Props>> | undefined;
  let loaded: Module<Props> | undefined;
  const preload = () => (loading ??= load().then((module) => (loaded = module)));
  return Object.assign(
    lazy(() => (loaded ? alreadyLoaded(loaded) : preload())),
    { preload },
  );
}

/**
 * React's lazy only calls `then` on what its loader returns (its type asks for a Promise): a
 * thenable that calls back at once makes the component resolve within the render.
 */
function alreadyLoaded<Props>(module: Module<Props>): Promise<Module<Props>> {
  const thenable: PromiseLike<Module<Props>> = {
    then<Result>(onLoaded?: ((value: Module<Props>) => Result | PromiseLike<Result>) | null) {
      return Promise.resolve(onLoaded ? onLoaded(module) : (module as Result));
    },
  };
  return thenable as Promise<Module<Props>>;
}
