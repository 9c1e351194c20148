import { en } from 'zod/locales';
import { z } from 'zod/mini';

// zod/mini leaves its messages to a locale: without one, every issue would read "Invalid input".
z.config(en());

export { z };
