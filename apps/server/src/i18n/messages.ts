import { type ErrorCode, type Language, MAX_CORNERS_PER_MESSAGE } from '@pivot/contracts';
import type { PasswordProblem } from '../errors';

/**
 * Texts the server itself writes: error messages for API clients that do not translate codes
 * (curl, scripts), per-field password problems, and mail. The web app translates codes itself.
 */
const ERROR_MESSAGES: Record<Language, Record<ErrorCode, string>> = {
  en: {
    validation_error: 'Query error - try again',
    invalid_geometry:
      'A shape is not valid: its outline crosses itself, it has no area, a hole lies outside it or it has too many corners',
    crop_area_not_found: "A crop season names a crop area that the machine's map does not have",
    invalid_crop_seasons: "The map file's crop seasons are not valid: nothing was imported",
    password_rejected: 'The password was not accepted',
    invalid_link: 'This link is invalid, used or expired',
    unauthorized: 'User not logged in - access requires login',
    invalid_credentials: 'Incorrect email or password',
    current_password_required: 'Enter your current password to change the email',
    current_password_incorrect: 'The current password is incorrect',
    forbidden: 'No permissions',
    csrf_mismatch: 'The request lacks a valid CSRF token',
    watch_only: 'You can only watch this machine: ask an administrator for control',
    not_found: 'Object not found',
    user_not_found: 'User does not exist',
    sprinkler_not_found: 'Machine does not exist',
    program_not_found: 'Machine or program does not exist',
    sprinkler_not_on_broker: 'Machine with this ID not found on the message broker',
    email_taken: 'A user with this email already exists',
    sprinkler_exists: 'Machine with this ID already exists',
    too_many_programs: 'Too many programs on the machine, delete one first',
    access_not_granted: 'The user had no access to this machine',
    last_admin: 'The last administrator cannot be removed',
    program_name_taken: 'A program with this name already exists',
    rate_limited: 'Too many attempts - wait a moment and try again',
    internal_error: 'Server error - try again',
    sprinkler_processing_error: 'The machine answered with something that could not be processed',
    command_refused: 'The machine refused the command',
    machine_clock_wrong: "The machine's clock is wrong, so it did nothing - set its clock (NTP or GPS) and try again",
    sprinkler_unresponsive: 'The machine did not confirm the command',
    sprinkler_offline: 'The machine is offline - the command was not sent',
    request_in_progress:
      'This action is still being carried out, or was interrupted - check the machine before you try again',
    idempotency_key_reused: 'This request key was already used for another request',
    payload_too_large: 'The request carries more data than the server accepts here - send less at once',
    too_many_corners: `The shapes sent have more than ${MAX_CORNERS_PER_MESSAGE.toLocaleString('en')} corners in all - simplify them or send fewer at once`,
    device_not_found: 'No controller with this ID has credentials',
    device_exists: 'A controller with this ID already has credentials - give it a new secret instead',
    broker_unreachable: 'The message broker cannot be reached - nothing was changed, try again',
    device_id_reserved: "This ID is the server's own on the message broker - give the controller another ID",
    device_account_foreign:
      'The message broker has an account of this name that the server did not make - give the controller another ID, or say to take that account over',
    push_endpoint_taken:
      'This browser receives notifications for another account - sign that account out of it first, or unsubscribe it there',
    push_keys_invalid: 'The browser sent push keys that are not valid - subscribe again',
    too_many_streams: 'Too many live views open at once - close some tabs or windows and try again',
    too_many_streams_on_server:
      'The server has as many live views open as it can hold - the page will try again in a moment',
    outbound_address_refused: 'This address points inside the network and is not allowed',
    outbound_https_required: 'Only https:// addresses are allowed',
    outbound_host_not_found: 'The host name of this address could not be found',
    webhook_not_found: 'Webhook does not exist',
    too_many_webhooks: 'Too many webhooks, delete one first',
  },
  pl: {
    validation_error: 'Błąd zapytania - spróbuj ponownie',
    invalid_geometry:
      'Kształt jest nieprawidłowy: jego obrys przecina się sam ze sobą, nie ma powierzchni, otwór leży poza nim albo ma zbyt wiele narożników',
    crop_area_not_found: 'Sezon uprawy wskazuje obszar uprawy, którego nie ma na mapie maszyny',
    invalid_crop_seasons: 'Sezony upraw zapisane w pliku mapy są nieprawidłowe: niczego nie zaimportowano',
    password_rejected: 'Hasło nie zostało przyjęte',
    invalid_link: 'Ten link jest nieprawidłowy, został już użyty lub wygasł',
    unauthorized: 'Użytkownik niezalogowany - dostęp wymaga zalogowania',
    invalid_credentials: 'Nieprawidłowy email lub hasło',
    current_password_required: 'Aby zmienić email, podaj obecne hasło',
    current_password_incorrect: 'Obecne hasło jest nieprawidłowe',
    forbidden: 'Brak uprawnień',
    csrf_mismatch: 'Żądanie nie ma prawidłowego tokenu CSRF',
    watch_only: 'Możesz tylko podglądać tę maszynę: poproś administratora o sterowanie',
    not_found: 'Nie znaleziono obiektu',
    user_not_found: 'Użytkownik nie istnieje',
    sprinkler_not_found: 'Maszyna nie istnieje',
    program_not_found: 'Maszyna lub program nie istnieje',
    sprinkler_not_on_broker: 'Nie znaleziono maszyny o tym ID w brokerze wiadomości',
    email_taken: 'Użytkownik o tym adresie email już istnieje',
    sprinkler_exists: 'Maszyna o tym ID już istnieje',
    too_many_programs: 'Zbyt wiele programów na maszynie, najpierw usuń jeden',
    access_not_granted: 'Użytkownik nie miał dostępu do tej maszyny',
    last_admin: 'Nie można usunąć ostatniego administratora',
    program_name_taken: 'Program o tej nazwie już istnieje',
    rate_limited: 'Zbyt wiele prób - odczekaj chwilę i spróbuj ponownie',
    internal_error: 'Błąd serwera - spróbuj ponownie',
    sprinkler_processing_error: 'Odpowiedzi maszyny nie udało się przetworzyć',
    command_refused: 'Maszyna odrzuciła polecenie',
    machine_clock_wrong:
      'Zegar maszyny jest źle ustawiony, więc nic nie zrobiła - ustaw zegar (NTP lub GPS) i spróbuj ponownie',
    sprinkler_unresponsive: 'Maszyna nie potwierdziła polecenia',
    sprinkler_offline: 'Maszyna jest offline - polecenie nie zostało wysłane',
    request_in_progress:
      'To działanie jest jeszcze wykonywane albo zostało przerwane - sprawdź maszynę, zanim spróbujesz ponownie',
    idempotency_key_reused: 'Ten klucz żądania był już użyty dla innego żądania',
    payload_too_large: 'Żądanie zawiera więcej danych, niż serwer tu przyjmuje - wyślij mniej naraz',
    too_many_corners: `Przesłane kształty mają łącznie ponad ${MAX_CORNERS_PER_MESSAGE.toLocaleString('pl')} narożników - uprość je lub wyślij mniej naraz`,
    device_not_found: 'Żaden sterownik o tym ID nie ma danych dostępowych',
    device_exists: 'Sterownik o tym ID ma już dane dostępowe - zamiast tego nadaj mu nowy sekret',
    broker_unreachable: 'Brak połączenia z brokerem wiadomości - nic nie zmieniono, spróbuj ponownie',
    device_id_reserved: 'To ID należy do samego serwera w brokerze wiadomości - nadaj sterownikowi inne ID',
    device_account_foreign:
      'Broker wiadomości ma konto o tej nazwie, którego nie utworzył serwer - nadaj sterownikowi inne ID albo wskaż, że to konto ma zostać przejęte',
    push_endpoint_taken:
      'Ta przeglądarka otrzymuje powiadomienia dla innego konta - najpierw wyloguj tam to konto lub wyłącz w nim powiadomienia',
    push_keys_invalid: 'Przeglądarka przesłała nieprawidłowe klucze powiadomień - włącz powiadomienia ponownie',
    too_many_streams: 'Zbyt wiele widoków na żywo otwartych naraz - zamknij część kart lub okien i spróbuj ponownie',
    too_many_streams_on_server:
      'Serwer ma otwartych tyle widoków na żywo, ile może obsłużyć - strona spróbuje ponownie za chwilę',
    outbound_address_refused: 'Ten adres wskazuje do wnętrza sieci i jest niedozwolony',
    outbound_https_required: 'Dozwolone są tylko adresy https://',
    outbound_host_not_found: 'Nie znaleziono nazwy hosta tego adresu',
    webhook_not_found: 'Webhook nie istnieje',
    too_many_webhooks: 'Zbyt wiele webhooków, najpierw usuń jeden',
  },
};

const PASSWORD_MESSAGES: Record<Language, Record<PasswordProblem, string>> = {
  en: {
    min_length: 'The password needs at least 8 characters',
    lowercase: 'The password needs a lower-case letter',
    uppercase: 'The password needs an upper-case letter',
    digit: 'The password needs a digit',
    special: 'The password needs a special character',
    incorrect: 'The current password is incorrect',
    mismatch: 'Passwords must be the same',
    unchanged: 'The new password must differ from the current one',
  },
  pl: {
    min_length: 'Hasło musi mieć co najmniej 8 znaków',
    lowercase: 'Hasło musi zawierać małą literę',
    uppercase: 'Hasło musi zawierać wielką literę',
    digit: 'Hasło musi zawierać cyfrę',
    special: 'Hasło musi zawierać znak specjalny',
    incorrect: 'Obecne hasło jest nieprawidłowe',
    mismatch: 'Hasła muszą być takie same',
    unchanged: 'Nowe hasło musi różnić się od obecnego',
  },
};

export function errorMessage(code: ErrorCode, language: Language): string {
  return ERROR_MESSAGES[language][code];
}

export function passwordMessage(problem: PasswordProblem, language: Language): string {
  return PASSWORD_MESSAGES[language][problem];
}
