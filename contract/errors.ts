import { z } from 'zod';

/** The error body of every /api/v1 and /files answer: `{error:{code,message,details?}}`. */
export const ApiErrorBody = z.object({
  error: z.object({
    code: z.string(),
    message: z.string(),
    details: z.record(z.string(), z.array(z.string())).optional(),
  }),
});
export type ApiErrorBody = z.infer<typeof ApiErrorBody>;

/** Codes the web branches on; the server may send others (all snake_case). */
export type ErrorCode =
  | 'validation_failed'
  | 'unauthorized'
  | 'forbidden'
  | 'not_found'
  | 'conflict'
  | 'payload_too_large'
  | 'unsupported_media_type'
  | 'rate_limited'
  | 'internal_error'
  | (string & {});

/** Lists answer one shape: `{items,total,page,page_size}`. */
export const pageQuery = {
  page: z.coerce.number().int().min(1).default(1),
  page_size: z.coerce.number().int().min(1).max(200).default(25),
};
export type Page<T> = { items: T[]; total: number; page: number; page_size: number };

/** The response schema of a list: a page of `item` in the `Page<T>` shape. */
export const pageOf = <T extends z.ZodType>(item: T) =>
  z.object({
    items: z.array(item),
    total: z.number().int(),
    page: z.number().int(),
    page_size: z.number().int(),
  });
