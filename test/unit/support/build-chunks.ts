import type { Rollup } from 'vite';

/** A chunk of the build as Rollup describes it: what matters to the build's plugins is the import graph. */
export function chunk(
  fileName: string,
  options: {
    facade?: string;
    imports?: string[];
    dynamicImports?: string[];
    css?: string[];
    entry?: boolean;
  } = {},
): Rollup.OutputChunk {
  return {
    type: 'chunk',
    fileName,
    facadeModuleId: options.facade ?? null,
    imports: options.imports ?? [],
    dynamicImports: options.dynamicImports ?? [],
    isEntry: options.entry ?? false,
    viteMetadata: { importedCss: new Set(options.css ?? []), importedAssets: new Set() },
  } as unknown as Rollup.OutputChunk;
}

export const bundleOf = (...chunks: Rollup.OutputChunk[]): Rollup.OutputBundle =>
  Object.fromEntries(chunks.map((c) => [c.fileName, c]));
