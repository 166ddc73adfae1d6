import {
  BrokerAuthenticateAnswerSchema,
  BrokerAuthenticateBodySchema,
  BrokerAuthorizeAnswerSchema,
  BrokerAuthorizeBodySchema,
} from '../broker-hooks';
import { endpoint } from '../endpoint';

/* The broker's questions (EMQX's HTTP hooks), asked with the shared secret only it holds. */
const tag = 'broker';

export const authenticate = endpoint({
  method: 'POST',
  path: '/broker/authenticate',
  body: BrokerAuthenticateBodySchema,
  answer: BrokerAuthenticateAnswerSchema,
  errors: ['unauthorized'],
  tag,
  summary: "Whether a client connecting to the broker may, and a controller's ACL",
});

export const authorize = endpoint({
  method: 'POST',
  path: '/broker/authorize',
  body: BrokerAuthorizeBodySchema,
  answer: BrokerAuthorizeAnswerSchema,
  errors: ['unauthorized'],
  tag,
  summary: 'Whether a client may publish or subscribe to a topic',
});
