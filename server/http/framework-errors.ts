/**
 * Errors Fastify raises before any route runs (a malformed escape in the
 * path, an over-long path parameter, an over-long request line or headers)
 * still answer in the API's error envelope.
 */
import type { FastifyReply, FastifyServerOptions } from 'fastify';

const envelope = (msg: string) => ({ result: 'error', msg, code: 'BAD_REQUEST' });

export const frameworkErrors: FastifyServerOptions['frameworkErrors'] = (error, _request, reply) => {
  void (reply as FastifyReply).code(400).type('application/json; charset=utf-8').send(envelope(error.message));
};

export const clientErrorHandler: FastifyServerOptions['clientErrorHandler'] = (error, socket) => {
  if (!socket.writable) return;
  const tooLarge = (error as { code?: string }).code === 'HPE_HEADER_OVERFLOW';
  const status = tooLarge ? '431 Request Header Fields Too Large' : '400 Bad Request';
  const body = JSON.stringify(envelope(tooLarge ? 'Request line or headers too large' : 'Malformed HTTP request'));
  socket.end(`HTTP/1.1 ${status}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
};
