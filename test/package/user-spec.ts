/** A small spec of "someone else's" API for the package test: nothing in it comes from our own spec. */
const errors = [
  ['BadRequestError', 'BAD_REQUEST', 400],
  ['UnauthorizedError', 'UNAUTHORIZED', 401],
  ['NotFoundError', 'NOT_FOUND', 404],
  ['MethodNotAllowedError', 'METHOD_NOT_ALLOWED', 405],
  ['RequestTooLargeError', 'REQUEST_TOO_LARGE', 413],
  ['InternalError', 'INTERNAL_ERROR', 500],
] as const;

export const TODO_SPEC = `openapi: 3.1.0
info:
  title: Todo Service
  version: 2.0.0
servers:
  - url: http://localhost/v2
security:
  - basicAuth: []
paths:
  /todos:
    get:
      operationId: list-todos
      summary: List todos
      parameters:
        - name: done
          in: query
          description: Only finished (true) or unfinished (false) todos.
          schema: { type: boolean }
        - name: limit
          in: query
          schema: { type: integer, minimum: 1, maximum: 100 }
      responses:
        '200':
          description: The todos.
          content:
            application/json:
              schema:
                type: object
                required: [result, msg, todos]
                properties:
                  result: { type: string, const: success }
                  msg: { type: string }
                  todos:
                    type: array
                    items: { $ref: '#/components/schemas/Todo' }
              example:
                result: success
                msg: ''
                todos:
                  - { id: 7, title: Water the plants, done: false }
        '400': { $ref: '#/components/responses/BadRequest' }
    post:
      operationId: create-todo
      summary: Create a todo
      requestBody:
        required: true
        content:
          application/x-www-form-urlencoded:
            schema:
              type: object
              required: [title]
              properties:
                title: { type: string, minLength: 1 }
      responses:
        '200':
          description: The new todo.
          content:
            application/json:
              schema:
                type: object
                required: [result, msg, todo]
                properties:
                  result: { type: string, const: success }
                  msg: { type: string }
                  todo: { $ref: '#/components/schemas/Todo' }
              example:
                result: success
                msg: ''
                todo: { id: 8, title: Buy bread, done: false }
        '400': { $ref: '#/components/responses/BadRequest' }
components:
  securitySchemes:
    basicAuth: { type: http, scheme: basic }
  responses:
    BadRequest:
      description: Refused.
      content:
        application/json:
          schema: { $ref: '#/components/schemas/BadRequestError' }
  schemas:
    Todo:
      type: object
      required: [id, title, done]
      properties:
        id: { type: integer }
        title: { type: string }
        done: { type: boolean }
    Error:
      type: object
      required: [result, msg, code]
      properties:
        result: { type: string, const: error }
        msg: { type: string }
        code: { type: string }
${errors
  .map(
    ([name, code, status]) => `    ${name}:
      x-error-code: ${code}
      x-http-status: ${status}
      allOf:
        - $ref: '#/components/schemas/Error'
        - type: object
          properties:
            code: { const: ${code} }
`,
  )
  .join('')}`;
