/**
 * Answers to requests that fail before any route reads them: the address, size, type or syntax
 * of the request itself. None repeats the address, so nothing a caller put in it is echoed.
 */
export const TRANSPORT_MESSAGES = {
  badUrl: 'The address of the request is not valid (it holds a bad percent-encoding).',
  uriTooLong: 'The address of the request is too long.',
  headersTooLarge: 'The request headers (or its address) are too large.',
  timeout: 'The request took too long to arrive.',
  tooLarge: 'The request is too large.',
  unsupportedMediaType: 'Unsupported content type.',
  emptyJson: 'The request body is empty.',
  invalidJson: 'The request body is not valid JSON.',
  badRequest: 'The request could not be processed.',
  notFound: 'The requested resource was not found.',
  internal: 'Something went wrong on our side. Please try again.',
} as const;
